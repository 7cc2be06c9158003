import { isoNow } from '@switchboard/core';
import { CompiledQuery, type Kysely } from 'kysely';
import type { DialectName } from '@switchboard/core';
import type { FlowsDatabase } from './database.ts';
import type { FlowDefinition } from '../domain/flow-definition.ts';
import { slugCandidate, slugify } from '../domain/slug.ts';
import { flowNotFound, versionConflict } from '../domain/errors.ts';

/** A flow's current state as listed. */
export interface FlowSummary {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** Who saved a version and why, and the version it must follow (none: unconditional). */
export interface VersionMeta {
  author: string | null;
  note: string | null;
  /** The save is refused with 409 version_conflict unless this is still the flow's latest version. */
  baseVersion?: number;
}

/** One saved version as the history lists it. */
export interface VersionSummary {
  version: number;
  createdAt: string;
  author: string | null;
  note: string | null;
}

/** One saved version with its definition. */
export interface FlowVersion extends VersionSummary {
  definition: FlowDefinition;
}

const UNATTRIBUTED: VersionMeta = { author: null, note: null };

/** Flows and their versions. */
export class FlowStore {
  // Looked up on every run: written once as SQL so that no query is built per call.
  private readonly currentSql: string;

  constructor(
    private readonly db: Kysely<FlowsDatabase>,
    dialect: DialectName,
  ) {
    this.currentSql =
      dialect === 'postgres' ? 'select id, version from flows where org_id = $1 and slug = $2' : 'select id, version from flows where org_id = ? and slug = ?';
  }

  /**
   * Saves a validated definition as a new version. A `slug` that exists updates
   * that flow; a free `slug` creates the flow with it; no slug creates a flow
   * whose slug derives from the name (`-2`, `-3`… when taken). With
   * `meta.baseVersion`, only an update of a flow at that version is saved.
   */
  async save(orgId: number, definition: FlowDefinition, meta: VersionMeta = UNATTRIBUTED, now = new Date()): Promise<{ flow: FlowSummary; created: boolean }> {
    if (definition.slug) {
      const existing = await this.find(orgId, definition.slug);
      if (existing) return { flow: await this.addVersion(existing, definition, meta, now), created: false };
    }
    // The edit started from a version of a flow that is not there (deleted, or never saved).
    if (meta.baseVersion !== undefined) throw versionConflict(definition.slug ?? slugify(definition.name), meta.baseVersion, null);
    const base = definition.slug ?? slugify(definition.name);
    for (let attempt = 1; attempt < 1000; attempt++) {
      const slug = definition.slug ?? slugCandidate(base, attempt);
      if (!definition.slug && (await this.find(orgId, slug))) continue;
      try {
        return { flow: await this.create(orgId, slug, definition, meta, now), created: true };
      } catch (error) {
        // Lost a race for the slug: with an explicit slug, the other save made it an update.
        if (!isUniqueViolation(error)) throw error;
        if (definition.slug) return this.save(orgId, definition, meta, now);
      }
    }
    throw new Error('no free slug found');
  }

  private async create(orgId: number, slug: string, definition: FlowDefinition, meta: VersionMeta, now: Date): Promise<FlowSummary> {
    const stamp = isoNow(now);
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('flows')
        .values({ org_id: orgId, slug, name: definition.name, description: definition.description ?? null, version: 1, created_at: stamp, updated_at: stamp })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('flow_versions')
        .values({ flow_id: row.id, version: 1, definition: JSON.stringify({ ...definition, slug }), created_at: stamp, author: meta.author, note: meta.note })
        .execute();
      return presentSummary(row);
    });
  }

  /**
   * Saves a validated definition as the next version of a flow already looked
   * up; 404 when it was deleted since. With `meta.baseVersion`, 409
   * version_conflict unless the flow is still at that version.
   */
  async addVersion(existing: FlowSummary, definition: FlowDefinition, meta: VersionMeta = UNATTRIBUTED, now = new Date()): Promise<FlowSummary> {
    const stamp = isoNow(now);
    return this.db.transaction().execute(async (trx) => {
      // Incrementing in SQL keeps concurrent saves from taking the same version number; the
      // condition on the version makes the conflict check and the update one step (PostgreSQL
      // re-checks it after a concurrent update commits; SQLite runs writers one at a time).
      let update = trx
        .updateTable('flows')
        .set((eb) => ({ version: eb('version', '+', 1), name: definition.name, description: definition.description ?? null, updated_at: stamp }))
        .where('id', '=', existing.id);
      if (meta.baseVersion !== undefined) update = update.where('version', '=', meta.baseVersion);
      const row = await update.returningAll().executeTakeFirst();
      if (!row) {
        if (meta.baseVersion === undefined) throw flowNotFound(existing.slug);
        const current = await trx.selectFrom('flows').select('version').where('id', '=', existing.id).executeTakeFirst();
        throw versionConflict(existing.slug, meta.baseVersion, current?.version ?? null);
      }
      await trx
        .insertInto('flow_versions')
        .values({
          flow_id: row.id,
          version: row.version,
          definition: JSON.stringify({ ...definition, slug: row.slug }),
          created_at: stamp,
          author: meta.author,
          note: meta.note,
        })
        .execute();
      return presentSummary(row);
    });
  }

  /** The flow with this slug, if any. */
  async find(orgId: number, slug: string): Promise<FlowSummary | undefined> {
    const row = await this.db.selectFrom('flows').selectAll().where('org_id', '=', orgId).where('slug', '=', slug).executeTakeFirst();
    return row && presentSummary(row);
  }

  /** The flow with this slug, or 404 flow_not_found. */
  async require(orgId: number, slug: string): Promise<FlowSummary> {
    const flow = await this.find(orgId, slug);
    if (!flow) throw flowNotFound(slug);
    return flow;
  }

  /** The id and current version of a flow: the one query a run needs when the definition is cached. */
  async currentVersion(orgId: number, slug: string): Promise<{ id: number; version: number } | undefined> {
    const { rows } = await this.db.executeQuery<{ id: number; version: number }>(CompiledQuery.raw(this.currentSql, [orgId, slug]));
    return rows[0];
  }

  /** The stored definition of one version. */
  async definition(flowId: number, version: number): Promise<FlowDefinition> {
    const row = await this.db
      .selectFrom('flow_versions')
      .select('definition')
      .where('flow_id', '=', flowId)
      .where('version', '=', version)
      .executeTakeFirstOrThrow();
    return JSON.parse(row.definition) as FlowDefinition;
  }

  /** One version with its definition, if the flow has it. */
  async version(flowId: number, version: number): Promise<FlowVersion | undefined> {
    const row = await this.db
      .selectFrom('flow_versions')
      .select(['version', 'created_at', 'author', 'note', 'definition'])
      .where('flow_id', '=', flowId)
      .where('version', '=', version)
      .executeTakeFirst();
    return (
      row && { version: row.version, createdAt: row.created_at, author: row.author, note: row.note, definition: JSON.parse(row.definition) as FlowDefinition }
    );
  }

  /** Every version of a flow without its definition, newest first. */
  async versions(flowId: number): Promise<VersionSummary[]> {
    const rows = await this.db
      .selectFrom('flow_versions')
      .select(['version', 'created_at', 'author', 'note'])
      .where('flow_id', '=', flowId)
      .orderBy('version', 'desc')
      .execute();
    return rows.map((r) => ({ version: r.version, createdAt: r.created_at, author: r.author, note: r.note }));
  }

  /** Every flow of the organization, by slug. */
  async list(orgId: number): Promise<FlowSummary[]> {
    const rows = await this.db.selectFrom('flows').selectAll().where('org_id', '=', orgId).orderBy('slug').execute();
    return rows.map(presentSummary);
  }

  /**
   * Deletes a flow with its versions and drafts. Its runs stay readable,
   * marked with the flow's name (a later flow may take the slug again: its
   * runs are not marked).
   */
  async delete(orgId: number, slug: string): Promise<void> {
    const flow = await this.require(orgId, slug);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('runs')
        .set({ deleted_flow_name: flow.name })
        .where('org_id', '=', orgId)
        .where('flow', '=', flow.slug)
        .where('deleted_flow_name', 'is', null)
        .execute();
      await trx.deleteFrom('flow_drafts').where('flow_id', '=', flow.id).execute();
      await trx.deleteFrom('flow_versions').where('flow_id', '=', flow.id).execute();
      await trx.deleteFrom('flows').where('id', '=', flow.id).execute();
    });
  }
}

function presentSummary(row: Omit<FlowsDatabase['flows'], 'id'> & { id: number }): FlowSummary {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/.test(e?.message ?? '');
}
