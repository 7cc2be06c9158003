import { isoNow } from '@switchboard/core';
import type { Kysely } from 'kysely';
import type { FlowsDatabase } from './database.ts';

/** A stored draft. */
export interface StoredDraft {
  definition: Record<string, unknown>;
  baseVersion: number | null;
  savedAt: string;
}

/** Drafts: one per flow and owner (`user:EMAIL`, `token:ID`), replaced by each autosave, gone with their flow. */
export class DraftStore {
  constructor(private readonly db: Kysely<FlowsDatabase>) {}

  /** Stores (or replaces) the owner's draft of a flow; returns when it was saved. */
  async put(flowId: number, owner: string, draft: { definition: Record<string, unknown>; baseVersion: number | null }, now = new Date()): Promise<string> {
    const savedAt = isoNow(now);
    const row = { flow_id: flowId, owner, definition: JSON.stringify(draft.definition), base_version: draft.baseVersion, saved_at: savedAt };
    await this.db
      .insertInto('flow_drafts')
      .values(row)
      .onConflict((oc) => oc.columns(['flow_id', 'owner']).doUpdateSet({ definition: row.definition, base_version: row.base_version, saved_at: row.saved_at }))
      .execute();
    return savedAt;
  }

  /** The owner's draft of a flow, if any. */
  async get(flowId: number, owner: string): Promise<StoredDraft | undefined> {
    const row = await this.db
      .selectFrom('flow_drafts')
      .select(['definition', 'base_version', 'saved_at'])
      .where('flow_id', '=', flowId)
      .where('owner', '=', owner)
      .executeTakeFirst();
    return row && { definition: JSON.parse(row.definition) as Record<string, unknown>, baseVersion: row.base_version, savedAt: row.saved_at };
  }

  /** Removes the owner's draft of a flow; true when there was one. */
  async delete(flowId: number, owner: string): Promise<boolean> {
    const result = await this.db.deleteFrom('flow_drafts').where('flow_id', '=', flowId).where('owner', '=', owner).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
