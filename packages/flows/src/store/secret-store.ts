import { AppError, decryptCredential, encryptCredential, isoNow } from '@switchboard/core';
import type { Kysely } from 'kysely';
import { FlowsError } from '../domain/errors.ts';
import { SECRET_NAME_PATTERN } from '../domain/secret-references.ts';
import type { FlowsDatabase } from './database.ts';

/** Longest secret value, in characters (a long JWT or a service account's JSON key fits). */
export const MAX_SECRET_LENGTH = 65_536;
// Writing last_used_at on every tool call would turn each call into a write; a minute's precision is enough.
const LAST_USED_PRECISION_MS = 60_000;

/** A secret as listed: never its value. */
export interface SecretListing {
  name: string;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
}

/** 404 for a secret the organization does not have. */
export function secretNotFound(name: string): FlowsError {
  return new FlowsError('not_found', `Secret "${name}" not found`, 'secret_not_found', { param: 'name' });
}

/** Refuses a name that is not SECRET_NAME_PATTERN (it could never be referenced). */
export function checkSecretName(name: string): void {
  if (!SECRET_NAME_PATTERN.test(name)) {
    throw new FlowsError(
      'invalid_request',
      'Secret name must be 1-64 letters, digits and "_", not starting with a digit (e.g. GITHUB_TOKEN)',
      'invalid_secret_name',
      { param: 'name' },
    );
  }
}

/**
 * An organization's secrets: values stored encrypted (AES-256-GCM with
 * SWITCHBOARD_SECRET, as provider keys), listed by name only, and revealed
 * to the engine only, for the tool requests that reference them.
 */
export class SecretStore {
  constructor(
    private readonly db: Kysely<FlowsDatabase>,
    private readonly key: Buffer,
  ) {}

  /** Creates or replaces a secret; answers it as listed. */
  async set(orgId: number, name: string, value: unknown, now = new Date()): Promise<SecretListing> {
    checkSecretName(name);
    // The value is never part of a message: it may be a secret even when it is the wrong shape.
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_SECRET_LENGTH) {
      throw new FlowsError('invalid_request', `"value" must be a non-empty string of at most ${MAX_SECRET_LENGTH} characters`, 'invalid_secret_value', {
        param: 'value',
      });
    }
    const stamp = isoNow(now);
    const sealed = encryptCredential(this.key, value);
    await this.db
      .insertInto('secrets')
      .values({ org_id: orgId, name, value: sealed, created_at: stamp, updated_at: stamp, last_used_at: null })
      .onConflict((oc) => oc.columns(['org_id', 'name']).doUpdateSet({ value: sealed, updated_at: stamp }))
      .execute();
    const row = await this.db
      .selectFrom('secrets')
      .select(['name', 'created_at', 'updated_at', 'last_used_at'])
      .where('org_id', '=', orgId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (!row) throw new AppError('internal', 'Secret missing after it was saved');
    return row;
  }

  /** The organization's secrets by name (no values). */
  async list(orgId: number): Promise<SecretListing[]> {
    const rows = await this.db.selectFrom('secrets').select(['name', 'created_at', 'updated_at', 'last_used_at']).where('org_id', '=', orgId).execute();
    // Sorted here, by code unit: PostgreSQL's collation may order names otherwise than SQLite.
    return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Names of the organization's secrets (what a save checks references against). */
  async names(orgId: number): Promise<Set<string>> {
    const rows = await this.db.selectFrom('secrets').select('name').where('org_id', '=', orgId).execute();
    return new Set(rows.map((row) => row.name));
  }

  /** Deletes a secret; 404 when there is none by that name. */
  async delete(orgId: number, name: string): Promise<void> {
    const result = await this.db.deleteFrom('secrets').where('org_id', '=', orgId).where('name', '=', name).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw secretNotFound(name);
  }

  /**
   * The values of the named secrets that exist (decrypted), for a tool
   * request about to be sent; marks them used (at most once a minute).
   */
  async reveal(orgId: number, names: readonly string[], now = new Date()): Promise<Map<string, string>> {
    const values = new Map<string, string>();
    if (names.length === 0) return values;
    const rows = await this.db.selectFrom('secrets').select(['name', 'value', 'last_used_at']).where('org_id', '=', orgId).where('name', 'in', names).execute();
    const stale: string[] = [];
    for (const row of rows) {
      values.set(row.name, decryptCredential(this.key, row.value));
      if (row.last_used_at === null || now.getTime() - Date.parse(row.last_used_at) >= LAST_USED_PRECISION_MS) stale.push(row.name);
    }
    if (stale.length > 0) {
      await this.db
        .updateTable('secrets')
        .set({ last_used_at: isoNow(now) })
        .where('org_id', '=', orgId)
        .where('name', 'in', stale)
        .execute();
    }
    return values;
  }
}
