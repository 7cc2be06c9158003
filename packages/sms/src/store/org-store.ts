import { AppError, constantTimeEqual, decryptCredential, encryptCredential, hashSecret, issueSecret, preparedQuery } from '@switchboard/core';
import type { Kysely } from 'kysely';
import { isValidOrgId } from '../domain/org-id.ts';
import type { SimRecord } from '../domain/message.ts';
import type { KeyListing } from '../domain/console-records.ts';

export type { KeyListing } from '../domain/console-records.ts';
import type { SmsTables } from './schema.ts';

/** Drivers an organization can send through. */
export const DRIVERS = ['android', 'httpsms', 'twilio', 'webhook', 'none'] as const;
/** One of the sending drivers. */
export type DriverName = (typeof DRIVERS)[number];

/** A driver's settings and credentials, stored sealed as one JSON object. */
export interface GatewaySettings {
  url?: string;
  username?: string;
  password?: string;
  api_key?: string;
  account_sid?: string;
  auth_token?: string;
  from?: string;
  signing_key?: string;
}

/** An organization's sending driver and its settings. */
export interface ActiveGateway {
  driver: DriverName;
  settings: GatewaySettings;
}

/** An organization as the session and the switcher list it. */
export interface OrganizationListing {
  org_id: string;
  name: string;
}

// last_used_at is written at most once a minute per key, so reads stay reads.
const TOUCH_INTERVAL_MS = 60_000;

/** The live key with this hash: every authenticated request asks, so it is compiled once. */
const keyQuery = preparedQuery({
  build: (db: Kysely<SmsTables>, hash: string) =>
    db.selectFrom('api_keys').select(['id', 'org_id', 'hash', 'last_used_at']).where('hash', '=', hash).where('revoked_at', 'is', null),
  params: (hash) => [hash],
});

/** Inserts an organization row; 400 for a malformed id, 409 when the id is taken. */
async function insertOrganization(db: Kysely<SmsTables>, orgId: string, name: string | undefined, createdAt: string): Promise<void> {
  if (!isValidOrgId(orgId)) {
    throw new AppError('invalid_request', 'org_id must be 1 to 64 characters of a-z, 0-9, _ and -, starting with a letter or digit');
  }
  // Written first: on SQLite a transaction that reads before writing can fail when another process wrote in between.
  const inserted = await db
    .insertInto('organizations')
    .values({ org_id: orgId, name: name ?? orgId, active_driver: 'none', seq: 0, created_at: createdAt })
    .onConflict((oc) => oc.column('org_id').doNothing())
    .returning('org_id')
    .executeTakeFirst();
  if (!inserted) throw new AppError('conflict', `organization ${orgId} already exists`);
}

/** Organizations, their secret keys, gateways and SIMs. */
export class OrgStore {
  constructor(
    private readonly db: Kysely<SmsTables>,
    /** Key that seals gateway credentials (config.secret). */
    private readonly secret: Buffer,
  ) {}

  /** Creates an organization with its first secret key (the CLI's `sms org create`). */
  async createOrganization(orgId: string, name: string | undefined, now: Date): Promise<{ orgId: string; keyId: number; secretKey: string }> {
    const issued = issueSecret('sms_');
    const createdAt = now.toISOString();
    const keyId = await this.db.transaction().execute(async (trx) => {
      await insertOrganization(trx, orgId, name, createdAt);
      const row = await trx
        .insertInto('api_keys')
        .values({ org_id: orgId, name: 'default', hash: issued.hash, hint: issued.hint, created_at: createdAt })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    return { orgId, keyId, secretKey: issued.value };
  }

  /** Creates an organization without a key (the console's New organization: keys are made on its Keys page, shown once). */
  async addOrganization(orgId: string, name: string | undefined, now: Date): Promise<OrganizationListing> {
    await insertOrganization(this.db, orgId, name, now.toISOString());
    return { org_id: orgId, name: name ?? orgId };
  }

  private async requireOrganization(orgId: string): Promise<void> {
    if (!(await this.findOrganization(orgId))) throw new AppError('not_found', `organization ${orgId} does not exist`);
  }

  /** An organization's id and name, or undefined when there is none. */
  async findOrganization(orgId: string): Promise<OrganizationListing | undefined> {
    return this.db.selectFrom('organizations').select(['org_id', 'name']).where('org_id', '=', orgId).executeTakeFirst();
  }

  /** Organizations by id (all of them, or those of `orgIds`), sorted by id. */
  async listOrganizations(orgIds?: readonly string[]): Promise<OrganizationListing[]> {
    if (orgIds && orgIds.length === 0) return [];
    let select = this.db.selectFrom('organizations').select(['org_id', 'name']);
    if (orgIds) select = select.where('org_id', 'in', orgIds);
    const rows = await select.execute();
    // Sorted here, by code unit: the same order on both engines whatever PostgreSQL's collation.
    return rows.sort((a, b) => (a.org_id < b.org_id ? -1 : a.org_id > b.org_id ? 1 : 0));
  }

  /** Issues another secret key for an organization. */
  async createKey(orgId: string, name: string | undefined, now: Date): Promise<{ keyId: number; secretKey: string }> {
    await this.requireOrganization(orgId);
    const issued = issueSecret('sms_');
    const row = await this.db
      .insertInto('api_keys')
      .values({ org_id: orgId, name: name ?? 'key', hash: issued.hash, hint: issued.hint, created_at: now.toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { keyId: row.id, secretKey: issued.value };
  }

  /** Revokes a key; the very next request with it fails (keys are looked up on every request, never cached). */
  async revokeKey(orgId: string, keyId: number, now: Date): Promise<void> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now.toISOString() })
      .where('org_id', '=', orgId)
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new AppError('not_found', `no active key ${keyId} in organization ${orgId}`);
  }

  /** The organization's keys, without secrets. */
  async listKeys(orgId: string): Promise<KeyListing[]> {
    await this.requireOrganization(orgId);
    const rows = await this.db.selectFrom('api_keys').selectAll().where('org_id', '=', orgId).orderBy('id').execute();
    return rows.map((row) => ({
      key_id: row.id,
      name: row.name,
      hint: row.hint,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
      revoked_at: row.revoked_at,
    }));
  }

  /**
   * The organization a presented secret key belongs to, or undefined for a
   * wrong or revoked key. One indexed lookup by hash; no cache, so revocation
   * takes effect on the next request on every instance.
   */
  async organizationOfKey(presented: string, now: Date): Promise<string | undefined> {
    return (await this.authenticateKey(presented, now))?.orgId;
  }

  /** The organization and id of a presented live secret key, or undefined (see organizationOfKey). */
  async authenticateKey(presented: string, now: Date): Promise<{ orgId: string; keyId: number } | undefined> {
    if (!presented.startsWith('sms_') || presented.length > 200) return undefined;
    const hash = hashSecret(presented);
    const [row] = await keyQuery(this.db, hash);
    if (!row || !constantTimeEqual(row.hash, hash)) return undefined;
    if (!row.last_used_at || Date.parse(row.last_used_at) < now.getTime() - TOUCH_INTERVAL_MS) {
      await this.db.updateTable('api_keys').set({ last_used_at: now.toISOString() }).where('id', '=', row.id).execute();
    }
    return { orgId: row.org_id, keyId: Number(row.id) };
  }

  /** The gateway rows of an organization: each configured driver's settings and when they were last set. */
  async gateways(orgId: string): Promise<Array<{ driver: string; settings: GatewaySettings; updated_at: string }>> {
    const rows = await this.db.selectFrom('gateways').select(['driver', 'config', 'updated_at']).where('org_id', '=', orgId).orderBy('driver').execute();
    return rows.map((row) => ({
      driver: row.driver,
      settings: JSON.parse(decryptCredential(this.secret, row.config)) as GatewaySettings,
      updated_at: row.updated_at,
    }));
  }

  /** The organization's sending driver (`none` when it has none). */
  async activeDriver(orgId: string): Promise<DriverName> {
    const org = await this.db.selectFrom('organizations').select('active_driver').where('org_id', '=', orgId).executeTakeFirst();
    return (org?.active_driver ?? 'none') as DriverName;
  }

  /** Stores a driver's settings (credentials sealed) and makes it the organization's sending driver. */
  async setGateway(orgId: string, driver: DriverName, settings: GatewaySettings, now: Date): Promise<void> {
    await this.requireOrganization(orgId);
    const sealed = encryptCredential(this.secret, JSON.stringify(settings));
    const updatedAt = now.toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('gateways')
        .values({ org_id: orgId, driver, config: sealed, updated_at: updatedAt })
        .onConflict((oc) => oc.columns(['org_id', 'driver']).doUpdateSet({ config: sealed, updated_at: updatedAt }))
        .execute();
      await trx.updateTable('organizations').set({ active_driver: driver }).where('org_id', '=', orgId).execute();
    });
  }

  /** A driver's stored settings (for signature checks and sending), or undefined when never set. */
  async gatewaySettings(orgId: string, driver: string): Promise<GatewaySettings | undefined> {
    const row = await this.db.selectFrom('gateways').select('config').where('org_id', '=', orgId).where('driver', '=', driver).executeTakeFirst();
    return row ? (JSON.parse(decryptCredential(this.secret, row.config)) as GatewaySettings) : undefined;
  }

  /** The organization's sending driver and its settings. */
  async activeGateway(orgId: string): Promise<ActiveGateway> {
    const driver = await this.activeDriver(orgId);
    if (driver === 'none') return { driver, settings: {} };
    return { driver, settings: (await this.gatewaySettings(orgId, driver)) ?? {} };
  }

  /** Sets a SIM's label and phone number, registering it when new. */
  async setSim(orgId: string, sim: string, update: { label?: string | null; phoneNumber?: string | null }, now: Date): Promise<SimRecord> {
    await this.requireOrganization(orgId);
    const at = now.toISOString();
    const changes: { label?: string | null; phone_number?: string | null } = {};
    if (update.label !== undefined) changes.label = update.label;
    if (update.phoneNumber !== undefined) changes.phone_number = update.phoneNumber;
    await this.db
      .insertInto('sims')
      .values({
        org_id: orgId,
        sim,
        label: update.label ?? null,
        phone_number: update.phoneNumber ?? null,
        message_count: 0,
        inbound_count: 0,
        outbound_count: 0,
        first_seen_at: at,
        last_seen_at: at,
      })
      .onConflict((oc) => (Object.keys(changes).length > 0 ? oc.columns(['org_id', 'sim']).doUpdateSet(changes) : oc.columns(['org_id', 'sim']).doNothing()))
      .execute();
    return presentSim(await this.db.selectFrom('sims').selectAll().where('org_id', '=', orgId).where('sim', '=', sim).executeTakeFirstOrThrow());
  }

  /** The organization's SIMs, in the order they were first seen. */
  async listSims(orgId: string): Promise<SimRecord[]> {
    const rows = await this.db.selectFrom('sims').selectAll().where('org_id', '=', orgId).orderBy('first_seen_at').orderBy('sim').execute();
    return rows.map(presentSim);
  }
}

/** The SIM fields that go over the wire. */
export function presentSim(row: SmsTables['sims']): SimRecord {
  return {
    sim: row.sim,
    label: row.label,
    phone_number: row.phone_number,
    device_id: row.device_id,
    slot: row.slot === null ? null : Number(row.slot),
    message_count: Number(row.message_count),
    inbound_count: Number(row.inbound_count),
    outbound_count: Number(row.outbound_count),
    first_seen_at: row.first_seen_at,
    last_seen_at: row.last_seen_at,
  };
}
