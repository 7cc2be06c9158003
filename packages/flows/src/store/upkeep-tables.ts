import type { VersionedMigration } from '@switchboard/core';

/** Tables and columns of a flow's life and of knowledge upkeep (issue 22). Timestamps ISO-8601 text, JSON as text. */
export interface UpkeepTables {
  /** What a builder holds for one flow and one editor, valid or not (design/flows.md, "Drafts"). */
  flow_drafts: {
    flow_id: number;
    /** Whose draft: `user:EMAIL` for a signed-in user, `token:ID` for a token (names are not unique). */
    owner: string;
    definition: string;
    /** The version the draft was edited from; null when the editor did not say. */
    base_version: number | null;
    saved_at: string;
  };
}

// Columns added to existing tables are optional in these types: rows written before them (and tests' rows) lack them.

/** Columns added to `runs`. */
export interface RunUpkeepColumns {
  /** Name of the run's flow when that flow was deleted (its runs stay readable); null while it exists. */
  deleted_flow_name?: string | null;
}

/** Columns added to `kb_documents`. */
export interface DocumentUpkeepColumns {
  /** SHA-256 of the uploaded bytes: an upload of the same name and content changes nothing. Null for documents stored before. */
  content_hash?: string | null;
}

/** Columns added to `knowledge_bases`: a change of embedding model embeds every chunk again, and says how far it got. */
export interface EmbeddingJobColumns {
  /** `running` while chunks wait for the current model's vectors, `failed` when the provider refused; null when idle. */
  embedding_status?: string | null;
  embedding_done?: number;
  embedding_total?: number;
  /** The provider's message when the job failed (never a key). */
  embedding_error?: string | null;
  /** The running job's id: a job writes only while it is still the knowledge base's job (a later change starts another). */
  embedding_job?: string | null;
  /** Last progress of the instance doing the job: another instance takes over a job whose heartbeat stopped. */
  embedding_heartbeat?: string | null;
}

/** 0010: drafts per flow and editor; they go with their flow. */
export const draftsMigration: VersionedMigration = {
  async up(db) {
    await db.schema
      .createTable('flow_drafts')
      .addColumn('flow_id', 'integer', (c) => c.notNull().references('flows.id').onDelete('cascade'))
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('definition', 'text', (c) => c.notNull())
      .addColumn('base_version', 'integer')
      .addColumn('saved_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('flow_drafts_pk', ['flow_id', 'owner'])
      .execute();
  },
};

/** 0011: the runs of a deleted flow keep its name. */
export const deletedFlowRunsMigration: VersionedMigration = {
  async up(db) {
    await db.schema.alterTable('runs').addColumn('deleted_flow_name', 'text').execute();
  },
};

/** 0012: document content hashes and the embedding job's progress. */
export const knowledgeUpkeepMigration: VersionedMigration = {
  async up(db) {
    await db.schema.alterTable('kb_documents').addColumn('content_hash', 'text').execute();
    await db.schema.createIndex('kb_documents_kb_source').on('kb_documents').columns(['kb_id', 'source']).execute();
    await db.schema.alterTable('knowledge_bases').addColumn('embedding_status', 'text').execute();
    await db.schema
      .alterTable('knowledge_bases')
      .addColumn('embedding_done', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('knowledge_bases')
      .addColumn('embedding_total', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('knowledge_bases').addColumn('embedding_error', 'text').execute();
    await db.schema.alterTable('knowledge_bases').addColumn('embedding_job', 'text').execute();
    await db.schema.alterTable('knowledge_bases').addColumn('embedding_heartbeat', 'text').execute();
  },
};
