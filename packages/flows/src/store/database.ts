import { coreMigrations, openDatabase, serialPrimaryKey, withCredentialColumns, type Database, type VersionedMigration } from '@switchboard/core';
import { join } from 'node:path';
import { sql, type Generated } from 'kysely';
import type { FlowsConfig } from '../config.ts';
import { agentTablesMigration, type AgentTables } from './agent-tables.ts';
import {
  deletedFlowRunsMigration,
  draftsMigration,
  knowledgeUpkeepMigration,
  type DocumentUpkeepColumns,
  type EmbeddingJobColumns,
  type RunUpkeepColumns,
  type UpkeepTables,
} from './upkeep-tables.ts';
import { flowMcpMigration, type FlowMcpColumns } from './mcp-tables.ts';
import { providerPricesMigration, runTriggerAndCostMigration, schedulesMigration, type RunTriggerColumns, type ScheduleTables } from './schedule-tables.ts';

/** Tables of the flows service. Timestamps are ISO-8601 text, JSON is text. */
export interface FlowsDatabase {
  knowledge_bases: AgentTables['knowledge_bases'] & EmbeddingJobColumns;
  kb_documents: AgentTables['kb_documents'] & DocumentUpkeepColumns;
  flow_drafts: UpkeepTables['flow_drafts'];
  provider_prices: ScheduleTables['provider_prices'];
  flow_schedules: ScheduleTables['flow_schedules'];
  schedule_fires: ScheduleTables['schedule_fires'];
  kb_chunks: AgentTables['kb_chunks'];
  memory_messages: AgentTables['memory_messages'];
  orgs: { id: Generated<number>; code: string; name: string; providers_version: number; created_at: string };
  tokens: {
    id: string;
    org_id: number;
    name: string;
    scope: string;
    token_hash: string;
    hint: string;
    created_at: string;
    last_used_at: string | null;
    revoked_at: string | null;
  };
  provider_connections: { org_id: number; name: string; kind: string; base_url: string | null; api_key: string | null; created_at: string; updated_at: string };
  /** Secrets for tool requests (`{{secrets.NAME}}`); `value` is AES-256-GCM sealed, never returned. */
  secrets: { org_id: number; name: string; value: string; created_at: string; updated_at: string; last_used_at: string | null };
  flows: FlowMcpColumns & {
    id: Generated<number>;
    org_id: number;
    slug: string;
    name: string;
    description: string | null;
    version: number;
    created_at: string;
    updated_at: string;
  };
  flow_versions: {
    flow_id: number;
    version: number;
    definition: string;
    created_at: string;
    /** Who saved it (`token:NAME`, `user:EMAIL`, `cli`); null for versions saved before authors were recorded. */
    author: string | null;
    /** The saver's note, at most 500 characters. */
    note: string | null;
  };
  runs: RunUpkeepColumns &
    RunTriggerColumns & {
      id: string;
      org_id: number;
      flow: string;
      version: number;
      status: string;
      input: string;
      metadata: string;
      output: string | null;
      error: string | null;
      usage: string;
      latency_ms: number | null;
      started_at: string;
      finished_at: string | null;
      trace: string;
    };
}

const migrations: Record<string, VersionedMigration> = {
  ...coreMigrations,
  '0001_flows_initial': {
    async up(db, dialect) {
      await db.schema
        .createTable('orgs')
        .addColumn('id', sql.raw(serialPrimaryKey(dialect)))
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('providers_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await withCredentialColumns(
        db.schema
          .createTable('tokens')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
          .addColumn('scope', 'text', (c) => c.notNull()),
      ).execute();
      await db.schema.createIndex('tokens_org').on('tokens').columns(['org_id', 'created_at']).execute();
      await db.schema
        .createTable('provider_connections')
        .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('base_url', 'text')
        .addColumn('api_key', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('provider_connections_pk', ['org_id', 'name'])
        .execute();
      await db.schema
        .createTable('flows')
        .addColumn('id', sql.raw(serialPrimaryKey(dialect)))
        .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('flows_org_slug', ['org_id', 'slug'])
        .execute();
      await db.schema
        .createTable('flow_versions')
        .addColumn('flow_id', 'integer', (c) => c.notNull().references('flows.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('definition', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('flow_versions_pk', ['flow_id', 'version'])
        .execute();
      await db.schema
        .createTable('runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
        .addColumn('flow', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('output', 'text')
        .addColumn('error', 'text')
        .addColumn('usage', 'text', (c) => c.notNull())
        .addColumn('latency_ms', 'integer')
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('trace', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('runs_org_started').on('runs').columns(['org_id', 'started_at']).execute();
      await db.schema.createIndex('runs_org_flow_started').on('runs').columns(['org_id', 'flow', 'started_at']).execute();
    },
  },
  '0002_knowledge_and_memory': agentTablesMigration,
  '0003_flow_version_authors': {
    async up(db) {
      // Nullable: versions saved before this migration have no recorded author or note.
      await db.schema.alterTable('flow_versions').addColumn('author', 'text').execute();
      await db.schema.alterTable('flow_versions').addColumn('note', 'text').execute();
    },
  },
  '0004_secrets': {
    async up(db) {
      await db.schema
        .createTable('secrets')
        .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addPrimaryKeyConstraint('secrets_pk', ['org_id', 'name'])
        .execute();
    },
  },
  // The sweep for runs left `running` by an instance that died reads only these rows (RunStore.failAbandoned).
  '0005_runs_running_index': {
    async up(db) {
      await db.schema.createIndex('runs_running_started').on('runs').column('started_at').where(sql.ref('status'), '=', 'running').execute();
    },
  },
  // 0010-0019: a flow's life and knowledge upkeep (issue 22).
  '0010_flow_drafts': draftsMigration,
  '0011_runs_deleted_flow': deletedFlowRunsMigration,
  '0012_knowledge_upkeep': knowledgeUpkeepMigration,
  // 0020-0029: schedules, costs and traces (issue 26).
  '0020_runs_trigger_and_cost': runTriggerAndCostMigration,
  '0021_provider_prices': providerPricesMigration,
  '0022_schedules': schedulesMigration,
  // 0030-0039: flows as MCP tools (issue 24).
  '0030_flow_mcp': flowMcpMigration,
};

/** Opens (and migrates) the flows database: `flows` schema on PostgreSQL, DATA_DIR/flows.db on SQLite. */
export function openFlowsDatabase(config: FlowsConfig): Promise<Database<FlowsDatabase>> {
  return openDatabase<FlowsDatabase>({
    url: config.databaseUrl,
    urlVariable: config.databaseUrlVariable,
    sqliteFile: join(config.dataDir, 'flows.db'),
    schema: 'flows',
    migrations,
  });
}
