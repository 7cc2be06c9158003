import { serialPrimaryKey, type VersionedMigration } from '@switchboard/core';
import { sql, type Generated } from 'kysely';

/** Tables of schedules and prices (issue 26). Timestamps ISO-8601 text (UTC, milliseconds, so they sort as text), JSON as text. */
export interface ScheduleTables {
  /** An organization's own prices of a provider's models (design/flows.md, "Costs"); the shipped defaults are in domain/prices.ts. */
  provider_prices: {
    org_id: number;
    /** The connection's name (also `openai`/`anthropic` served by the environment, which have no row of their own). */
    provider: string;
    model: string;
    input_per_mtok: number;
    output_per_mtok: number;
    updated_at: string;
  };
  /** A flow's schedules (design/flows.md, "Schedules"). */
  flow_schedules: {
    id: Generated<number>;
    org_id: number;
    flow_id: number;
    name: string;
    cron: string;
    timezone: string;
    /** The fixed input, JSON. */
    input: string;
    /** 1 active, 0 paused. */
    enabled: number;
    /** The next due time not yet claimed; null when paused or when the rule never fires again. Claiming moves it on. */
    next_run_at: string | null;
    last_run_at: string | null;
    last_status: string | null;
    last_run_id: string | null;
    created_at: string;
    updated_at: string;
  };
  /**
   * Each due time of a schedule that was handled: claimed and run (`running`, then the run's status) or
   * `skipped`. The key (schedule, due time) is the claim: a due time is inserted once, whichever instance wins.
   */
  schedule_fires: {
    schedule_id: number;
    due_at: string;
    /** `running`, `succeeded`, `failed` or `skipped`. */
    status: string;
    /** Why a skipped time did not run: `missed` (older than FLOWS_SCHEDULE_CATCHUP_MS) or `coalesced` (one catch-up run stood for it). */
    reason: string | null;
    run_id: string | null;
    recorded_at: string;
  };
}

// Columns added to existing tables are optional in these types: rows written before them (and tests' rows) lack them.

/** Columns added to `runs`. */
export interface RunTriggerColumns {
  /** What started the run: `api`, `mcp`, `ui` or `schedule` (rows from before this column say `api`). */
  trigger?: string;
  /** The schedule's name, for a scheduled run. */
  schedule?: string | null;
  /** US dollars of the run's model calls (its sub-agents' included); null for rows from before costs were kept. */
  cost_usd?: number | null;
  /** 1 when every model call had a price, 0 when one had none. */
  cost_priced?: number | null;
}

/** Runs say what started them and what they cost; `?trigger=` filters the list. */
export const runTriggerAndCostMigration: VersionedMigration = {
  async up(db) {
    await db.schema
      .alterTable('runs')
      .addColumn('trigger', 'text', (c) => c.notNull().defaultTo('api'))
      .execute();
    await db.schema.alterTable('runs').addColumn('schedule', 'text').execute();
    await db.schema.alterTable('runs').addColumn('cost_usd', 'double precision').execute();
    await db.schema.alterTable('runs').addColumn('cost_priced', 'integer').execute();
  },
};

/** An organization's prices per provider and model. */
export const providerPricesMigration: VersionedMigration = {
  async up(db) {
    await db.schema
      .createTable('provider_prices')
      .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('input_per_mtok', 'double precision', (c) => c.notNull())
      .addColumn('output_per_mtok', 'double precision', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('provider_prices_pk', ['org_id', 'provider', 'model'])
      .execute();
  },
};

/** Schedules and the due times they handled. */
export const schedulesMigration: VersionedMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('flow_schedules')
      .addColumn('id', sql.raw(serialPrimaryKey(dialect)))
      .addColumn('org_id', 'integer', (c) => c.notNull().references('orgs.id').onDelete('cascade'))
      .addColumn('flow_id', 'integer', (c) => c.notNull().references('flows.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('cron', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('input', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('next_run_at', 'text')
      .addColumn('last_run_at', 'text')
      .addColumn('last_status', 'text')
      .addColumn('last_run_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('flow_schedules_flow_name', ['flow_id', 'name'])
      .execute();
    // The workers' poll reads only schedules that are due: active ones, by their next due time.
    await db.schema.createIndex('flow_schedules_due').on('flow_schedules').column('next_run_at').where(sql.ref('enabled'), '=', 1).execute();
    await db.schema
      .createTable('schedule_fires')
      .addColumn('schedule_id', 'integer', (c) => c.notNull().references('flow_schedules.id').onDelete('cascade'))
      .addColumn('due_at', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('run_id', 'text')
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('schedule_fires_pk', ['schedule_id', 'due_at'])
      .execute();
  },
};
