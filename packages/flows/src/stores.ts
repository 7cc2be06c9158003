import type { Database } from '@switchboard/core';
import type { FlowsConfig } from './config.ts';
import { FlowAdmin } from './flow-admin.ts';
import { ProviderRegistry } from './engine/provider-registry.ts';
import { openFlowsDatabase, type FlowsDatabase } from './store/database.ts';
import { FlowStore } from './store/flow-store.ts';
import { OrgStore } from './store/org-store.ts';
import { SecretStore } from './store/secret-store.ts';
import { RunStore } from './store/run-store.ts';
import { KnowledgeStore } from './store/knowledge-store.ts';
import { MemoryStore } from './store/memory-store.ts';
import { KnowledgeService } from './engine/knowledge-service.ts';
import { DraftStore } from './store/draft-store.ts';
import { PriceStore } from './store/price-store.ts';
import { ScheduleStore } from './store/schedule-store.ts';
import { FlowLifecycle } from './flow-lifecycle.ts';
import { EmbeddingJobStore } from './store/embedding-job-store.ts';
import { FlowMcpStore } from './store/flow-mcp-store.ts';

/** The flows database with its stores: what the service and the CLI share. */
export interface FlowsStores {
  database: Database<FlowsDatabase>;
  orgs: OrgStore;
  /** Secrets for tool requests (`{{secrets.NAME}}`), stored encrypted. */
  secrets: SecretStore;
  flows: FlowStore;
  /** Drafts of the builder: one per flow and editor. */
  drafts: DraftStore;
  runs: RunStore;
  providers: ProviderRegistry;
  admin: FlowAdmin;
  /** Drafts, templates and duplicates. */
  lifecycle: FlowLifecycle;
  /** Knowledge bases: documents in, top-k chunks out. */
  knowledge: KnowledgeService;
  knowledgeBases: KnowledgeStore;
  /** Re-embedding jobs' state. */
  embeddingJobs: EmbeddingJobStore;
  memory: MemoryStore;
  /** Each organization's own model prices per provider. */
  prices: PriceStore;
  /** Flows' schedules and the due times they handled. */
  schedules: ScheduleStore;
  /** Which flows are tools of the organization's MCP endpoint, and as what. */
  mcp: FlowMcpStore;
  close(): Promise<void>;
}

/** Opens (and migrates) the database and builds the stores on it. */
export async function openFlowsStores(config: FlowsConfig): Promise<FlowsStores> {
  const database = await openFlowsDatabase(config);
  const orgs = new OrgStore(database.db, config.secret, database.dialect);
  const flows = new FlowStore(database.db, database.dialect);
  const prices = new PriceStore(database.db);
  const providers = new ProviderRegistry(orgs, config, prices);
  const knowledgeBases = new KnowledgeStore(database.db);
  const secrets = new SecretStore(database.db, config.secret);
  const drafts = new DraftStore(database.db);
  const admin = new FlowAdmin(flows, providers, secrets, drafts);
  return {
    knowledgeBases,
    knowledge: new KnowledgeService(knowledgeBases, providers),
    embeddingJobs: new EmbeddingJobStore(database.db),
    memory: new MemoryStore(database.db),
    database,
    orgs,
    secrets,
    flows,
    drafts,
    runs: new RunStore(database.db),
    providers,
    admin,
    lifecycle: new FlowLifecycle({ flows, admin, drafts, providers, secrets, knowledgeBases }),
    prices,
    schedules: new ScheduleStore(database.db),
    mcp: new FlowMcpStore(database.db, database.dialect),
    close: () => database.close(),
  };
}
