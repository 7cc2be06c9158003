import type { VersionedMigration } from '@switchboard/core';

/** Tables of knowledge bases and memory (issue 5). Timestamps ISO-8601 text, JSON and vectors as text. */
export interface AgentTables {
  knowledge_bases: {
    id: string;
    org_id: number;
    name: string;
    description: string | null;
    embedding_provider: string | null;
    embedding_model: string | null;
    created_at: string;
    updated_at: string;
  };
  kb_documents: { id: string; kb_id: string; source: string; content_type: string; chars: number; chunks: number; created_at: string };
  kb_chunks: {
    id: string;
    kb_id: string;
    document_id: string;
    ordinal: number;
    source: string;
    text: string;
    /** Space-separated BM25 tokens, computed once at insert. */
    tokens: string;
    /** JSON array of numbers when the knowledge base has an embedding model. */
    embedding: string | null;
  };
  memory_messages: {
    id: string;
    org_id: number;
    flow: string;
    session_id: string;
    seq: number;
    role: string;
    content: string;
    created_at: string;
  };
}

/** Migration creating the knowledge-base and memory tables. */
export const agentTablesMigration: VersionedMigration = {
  async up(db) {
    await db.schema
      .createTable('knowledge_bases')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('embedding_provider', 'text')
      .addColumn('embedding_model', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('knowledge_bases_org_name', ['org_id', 'name'])
      .execute();
    await db.schema
      .createTable('kb_documents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kb_id', 'text', (c) => c.notNull().references('knowledge_bases.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('chars', 'integer', (c) => c.notNull())
      .addColumn('chunks', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('kb_documents_kb').on('kb_documents').columns(['kb_id', 'created_at']).execute();
    await db.schema
      .createTable('kb_chunks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kb_id', 'text', (c) => c.notNull().references('knowledge_bases.id').onDelete('cascade'))
      .addColumn('document_id', 'text', (c) => c.notNull().references('kb_documents.id').onDelete('cascade'))
      .addColumn('ordinal', 'integer', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('tokens', 'text', (c) => c.notNull())
      .addColumn('embedding', 'text')
      .execute();
    await db.schema.createIndex('kb_chunks_kb').on('kb_chunks').columns(['kb_id', 'document_id', 'ordinal']).execute();
    await db.schema
      .createTable('memory_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      .addColumn('flow', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('memory_messages_session').on('memory_messages').columns(['org_id', 'flow', 'session_id', 'seq']).execute();
  },
};
