import { randomBytes } from 'node:crypto';
import { AppError, decryptCredential, encryptCredential, hashSecret, isoNow, issueSecret } from '@switchboard/core';
import { CompiledQuery, type Kysely } from 'kysely';
import type { DialectName } from '@switchboard/core';
import type { FlowsDatabase } from './database.ts';
import { ORG_CODE_PATTERN } from '../domain/slug.ts';

/** Token scopes: `run` calls flows, `manage` also administers the organization. */
export const TOKEN_SCOPES = ['run', 'manage'] as const;
/** One of TOKEN_SCOPES. */
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Marks the organization's providers (connections, prices) changed: every instance reloads them for its next run. */
export async function bumpProvidersVersion(db: Kysely<FlowsDatabase>, orgId: number): Promise<void> {
  await db
    .updateTable('orgs')
    .set((eb) => ({ providers_version: eb('providers_version', '+', 1) }))
    .where('id', '=', orgId)
    .execute();
}

/** Provider connection kinds, each served by its AI SDK provider. */
export const PROVIDER_KINDS = ['openai', 'anthropic', 'openai-compatible'] as const;
/** One of PROVIDER_KINDS. */
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
// Writing last_used_at on every request would turn each call into a write; a minute's precision is enough.
const LAST_USED_PRECISION_MS = 60_000;

/** An organization. */
export interface Org {
  id: number;
  code: string;
  name: string;
  providersVersion: number;
  createdAt: string;
}

/** The result of authenticating a bearer token: who is calling, for which organization. */
export interface Principal {
  /** The token's id; null for a signed-in user's session. */
  tokenId: string | null;
  /** Who acts, as activity and version history name them: `token:NAME` or `user:EMAIL`. */
  actor: string;
  scope: TokenScope;
  orgId: number;
  orgCode: string;
  /** Bumped on every provider change, so provider caches can key on it. */
  providersVersion: number;
  /** On run routes: the flow named in the path (null: the organization has none by that slug). */
  flow?: { slug: string; id: number; version: number } | null;
}

/** A token as listed (never its secret). */
export interface TokenRow {
  id: string;
  name: string;
  scope: TokenScope;
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A provider connection with its key decrypted, for the engine only. */
export interface ProviderConnection {
  name: string;
  kind: ProviderKind;
  baseUrl: string | null;
  apiKey: string | null;
}

/** Organizations, their tokens and provider connections. */
export class OrgStore {
  // The token lookup runs on every request: written once as SQL so that no query is built per call.
  private readonly authSql: string;
  private readonly authFlowSql: string;

  constructor(
    private readonly db: Kysely<FlowsDatabase>,
    private readonly secret: Buffer,
    dialect: DialectName,
  ) {
    // Numbered on PostgreSQL; on SQLite `?` binds in text order, which puts the slug (in the join) first.
    const [p1, p2] = dialect === 'postgres' ? ['$2', '$1'] : ['?', '?'];
    const columns = 't.id, t.name, t.scope, t.org_id, t.last_used_at, o.code, o.providers_version';
    this.authSql = `select ${columns} from tokens t join orgs o on o.id = t.org_id where t.token_hash = ${dialect === 'postgres' ? '$1' : '?'} and t.revoked_at is null`;
    // Run routes also need the flow's current version: the same query brings it along (unique index on org_id, slug).
    this.authFlowSql =
      `select ${columns}, f.id as flow_id, f.version as flow_version from tokens t join orgs o on o.id = t.org_id ` +
      `left join flows f on f.org_id = t.org_id and f.slug = ${p2} where t.token_hash = ${p1} and t.revoked_at is null`;
  }

  /** Creates an organization; 409 when the code is taken. */
  async createOrg(code: string, name?: string, now = new Date()): Promise<Org> {
    if (!ORG_CODE_PATTERN.test(code)) throw new AppError('invalid_request', 'org_code must be 2 to 40 characters of a-z, 0-9 and -');
    if (await this.findOrg(code)) throw new AppError('conflict', `Organization "${code}" already exists`);
    const row = await this.db
      .insertInto('orgs')
      .values({ code, name: name ?? code, providers_version: 0, created_at: isoNow(now) })
      .returning(['id', 'code', 'name', 'providers_version', 'created_at'])
      .executeTakeFirstOrThrow();
    return { id: row.id, code: row.code, name: row.name, providersVersion: row.providers_version, createdAt: row.created_at };
  }

  /** The organization with this code, if any. */
  async findOrg(code: string): Promise<Org | undefined> {
    const row = await this.db.selectFrom('orgs').selectAll().where('code', '=', code).executeTakeFirst();
    return row && { id: row.id, code: row.code, name: row.name, providersVersion: row.providers_version, createdAt: row.created_at };
  }

  /** Organizations sorted by code: every one, or those whose code is listed (a member's). */
  async listOrgs(codes?: readonly string[]): Promise<Org[]> {
    if (codes && codes.length === 0) return [];
    let query = this.db.selectFrom('orgs').selectAll();
    if (codes) query = query.where('code', 'in', codes);
    const rows = await query.execute();
    // Sorted here, by code unit: PostgreSQL's collation may order "a-b" and "ab" otherwise than SQLite.
    rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    return rows.map((row) => ({ id: row.id, code: row.code, name: row.name, providersVersion: row.providers_version, createdAt: row.created_at }));
  }

  /** The organization with this code, or a 404. */
  async requireOrg(code: string): Promise<Org> {
    const org = await this.findOrg(code);
    if (!org) throw new AppError('not_found', `Organization "${code}" not found`);
    return org;
  }

  /** Issues a token; the secret is returned here only. */
  async createToken(
    orgId: number,
    options: { name?: string; scope?: TokenScope } = {},
    now = new Date(),
  ): Promise<{ id: string; token: string; row: TokenRow }> {
    const scope = options.scope ?? 'run';
    if (!TOKEN_SCOPES.includes(scope)) throw new AppError('invalid_request', `scope must be one of ${TOKEN_SCOPES.join(', ')}`);
    const issued = issueSecret('sbf_');
    const id = `tok_${randomBytes(9).toString('base64url')}`;
    const row = {
      id,
      org_id: orgId,
      name: options.name ?? `${scope} token`,
      scope,
      token_hash: issued.hash,
      hint: issued.hint,
      created_at: isoNow(now),
      last_used_at: null,
      revoked_at: null,
    };
    await this.db.insertInto('tokens').values(row).execute();
    return { id, token: issued.value, row: presentTokenRow(row) };
  }

  /** Every token of the organization, newest first. */
  async listTokens(orgId: number): Promise<TokenRow[]> {
    const rows = await this.db.selectFrom('tokens').selectAll().where('org_id', '=', orgId).orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map(presentTokenRow);
  }

  /** Revokes a token; the next request with it fails. 404 when the organization has no such token. */
  async revokeToken(orgId: number, tokenId: string, now = new Date()): Promise<void> {
    const result = await this.db
      .updateTable('tokens')
      .set({ revoked_at: isoNow(now) })
      .where('org_id', '=', orgId)
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const exists = await this.db.selectFrom('tokens').select('id').where('org_id', '=', orgId).where('id', '=', tokenId).executeTakeFirst();
      if (!exists) throw new AppError('not_found', `Token "${tokenId}" not found`);
    }
  }

  /**
   * Looks a presented token up by its hash in one indexed query (joined with
   * its organization); undefined when unknown or revoked. Refreshes
   * last_used_at in the background when it is older than a minute. With
   * `flowSlug`, the same query also returns that flow's id and current version.
   */
  async authenticate(token: string, flowSlug?: string, now = new Date()): Promise<{ principal: Principal; touch?: Promise<void> } | undefined> {
    type Row = {
      id: string;
      name: string;
      scope: string;
      org_id: number;
      last_used_at: string | null;
      code: string;
      providers_version: number;
      flow_id?: number | null;
      flow_version?: number | null;
    };
    const query =
      flowSlug === undefined ? CompiledQuery.raw(this.authSql, [hashSecret(token)]) : CompiledQuery.raw(this.authFlowSql, [flowSlug, hashSecret(token)]);
    const { rows } = await this.db.executeQuery<Row>(query);
    const row = rows[0];
    if (!row) return undefined;
    const principal: Principal = {
      tokenId: row.id,
      actor: `token:${row.name}`,
      scope: row.scope as TokenScope,
      orgId: row.org_id,
      orgCode: row.code,
      providersVersion: row.providers_version,
    };
    if (flowSlug !== undefined)
      principal.flow = row.flow_id === null || row.flow_id === undefined ? null : { slug: flowSlug, id: row.flow_id, version: row.flow_version! };
    if (row.last_used_at !== null && now.getTime() - Date.parse(row.last_used_at) < LAST_USED_PRECISION_MS) return { principal };
    const touch = this.db
      .updateTable('tokens')
      .set({ last_used_at: isoNow(now) })
      .where('id', '=', row.id)
      .execute()
      .then(() => undefined);
    return { principal, touch };
  }

  /** Creates or replaces a provider connection; the API key is stored encrypted, and kept when an update gives none. */
  async setProvider(
    orgId: number,
    input: { name: string; kind: string; baseUrl?: string; apiKey?: string | null },
    now = new Date(),
  ): Promise<{ name: string; kind: ProviderKind }> {
    if (!PROVIDER_NAME.test(input.name)) throw new AppError('invalid_request', 'Provider name must be 1-40 characters of a-z, 0-9, "_" and "-"');
    if (!PROVIDER_KINDS.includes(input.kind as ProviderKind)) throw new AppError('invalid_request', `kind must be one of ${PROVIDER_KINDS.join(', ')}`);
    if (input.baseUrl !== undefined) {
      let url: URL | undefined;
      try {
        url = new URL(input.baseUrl);
      } catch {
        url = undefined;
      }
      if (!url || !['http:', 'https:'].includes(url.protocol)) throw new AppError('invalid_request', 'base_url must be an http(s) URL');
    }
    if (input.kind === 'openai-compatible' && !input.baseUrl) throw new AppError('invalid_request', 'An openai-compatible connection needs a base_url');
    const stamp = isoNow(now);
    const apiKey = input.apiKey ? encryptCredential(this.secret, input.apiKey) : null;
    const values = { kind: input.kind, base_url: input.baseUrl?.replace(/\/+$/, '') ?? null, updated_at: stamp };
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('provider_connections')
        .values({ org_id: orgId, name: input.name, created_at: stamp, ...values, api_key: apiKey })
        // No api_key in an update keeps the stored key (an edit form never sees it); null or "" removes it.
        .onConflict((oc) => oc.columns(['org_id', 'name']).doUpdateSet(input.apiKey === undefined ? values : { ...values, api_key: apiKey }))
        .execute();
      await bumpProvidersVersion(trx, orgId);
    });
    return { name: input.name, kind: input.kind as ProviderKind };
  }

  /** Removes a provider connection; 404 when there is none by that name. */
  async deleteProvider(orgId: number, name: string): Promise<void> {
    const result = await this.db.deleteFrom('provider_connections').where('org_id', '=', orgId).where('name', '=', name).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new AppError('not_found', `Provider connection "${name}" not found`);
    await bumpProvidersVersion(this.db, orgId);
  }

  /** Connections as listed (no key, only whether one is set). */
  async listProviders(orgId: number): Promise<Array<{ name: string; kind: ProviderKind; base_url: string | null; has_api_key: boolean; updated_at: string }>> {
    const rows = await this.db.selectFrom('provider_connections').selectAll().where('org_id', '=', orgId).orderBy('name').execute();
    return rows.map((r) => ({ name: r.name, kind: r.kind as ProviderKind, base_url: r.base_url, has_api_key: r.api_key !== null, updated_at: r.updated_at }));
  }

  /** Connections with decrypted keys, for building AI SDK providers. */
  async loadProviders(orgId: number): Promise<ProviderConnection[]> {
    const rows = await this.db.selectFrom('provider_connections').selectAll().where('org_id', '=', orgId).execute();
    return rows.map((r) => ({
      name: r.name,
      kind: r.kind as ProviderKind,
      baseUrl: r.base_url,
      apiKey: r.api_key === null ? null : decryptCredential(this.secret, r.api_key),
    }));
  }
}

function presentTokenRow(row: FlowsDatabase['tokens']): TokenRow {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as TokenScope,
    hint: row.hint,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
