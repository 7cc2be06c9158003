import type { Kysely } from 'kysely';
import type { Logger } from '@switchboard/core';
import type { FlowsDatabase } from './database.ts';
import { runCursor, type RunsBefore } from '../domain/run-cursor.ts';
import { runUpsert } from './run-upsert.ts';
import type { RunStatsRow } from '../domain/run-stats.ts';
import type { Usage } from '../domain/usage.ts';
import type { Cost } from '../domain/cost.ts';
import type { ModelCallRecord } from '../domain/sent-messages.ts';

/** One node's entry in a run's trace. */
export interface TraceEntry {
  node: string;
  type: string;
  status: 'succeeded' | 'failed' | 'skipped';
  started_at: string;
  ms: number;
  output?: unknown;
  usage?: Usage;
  tool_calls?: unknown[];
  /** What each model call of an llm node was sent, secrets masked. */
  model_calls?: ModelCallRecord[];
  error?: { message: string; type: string; code: string };
}

/** A run's states: recorded `running` at its start, then its outcome. */
export const RUN_STATUSES = ['running', 'succeeded', 'failed'] as const;
/** One of RUN_STATUSES. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** What starts runs (design/flows.md, "Schedules"): a token's call, an MCP client, the dashboard (a session), a schedule. */
export const RUN_TRIGGERS = ['api', 'mcp', 'ui', 'schedule'] as const;
/** One of RUN_TRIGGERS. */
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** A finished (or failed) run as stored and presented. */
export interface RunRecord {
  id: string;
  orgId: number;
  flow: string;
  version: number;
  status: RunStatus;
  input: unknown;
  metadata: unknown;
  output: unknown;
  error: unknown;
  usage: Usage;
  latencyMs: number | null;
  startedAt: string;
  finishedAt: string | null;
  trace: TraceEntry[];
  /** The name of the run's flow once that flow was deleted; null while it exists. */
  deletedFlowName?: string | null;
  /** What started it. */
  trigger: RunTrigger;
  /** The schedule's name, for a scheduled run. */
  schedule: string | null;
  /** What its model calls cost (null for runs recorded before costs were kept). */
  cost: Cost | null;
  /** The organization's code, for metrics; not stored. */
  orgCode?: string;
}

/** A run record as stored: its JSON fields serialized. */
export type RunRow = FlowsDatabase['runs'];

/** Reads and writes run records. */
export class RunStore {
  private readonly upsertRows: (rows: RunRow[]) => Promise<void>;

  constructor(private readonly db: Kysely<FlowsDatabase>) {
    this.upsertRows = runUpsert(db);
  }

  /**
   * Stores run rows in one statement: a run's end replaces the row its id has
   * (`running`, or failed by a sweep); a `running` row never replaces one, so a
   * late "still running" write cannot undo the run's end.
   */
  upsert(rows: RunRow[]): Promise<void> {
    return this.upsertRows(rows);
  }

  /**
   * A page of the organization's runs, newest first (by start, then id),
   * optionally of one flow and one status, and the cursor of the next page
   * (null on the last one).
   */
  async list(
    orgId: number,
    options: { flow?: string; status?: RunStatus; trigger?: RunTrigger; limit: number; before?: RunsBefore },
  ): Promise<{ runs: RunRecord[]; nextBefore: string | null }> {
    let query = this.db.selectFrom('runs').selectAll().where('org_id', '=', orgId);
    if (options.flow) query = query.where('flow', '=', options.flow);
    if (options.status) query = query.where('status', '=', options.status);
    if (options.trigger) query = query.where('trigger', '=', options.trigger);
    const before = options.before;
    if (before?.id !== undefined) {
      // `<=` bounds the index range; the id breaks ties between runs started in the same millisecond.
      const { startedAt, id } = before;
      query = query.where('started_at', '<=', startedAt).where((eb) => eb.or([eb('started_at', '<', startedAt), eb('id', '<', id)]));
    } else if (before) query = query.where('started_at', '<', before.startedAt);
    // One more row than asked says whether there is a next page.
    const rows = await query
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.limit + 1)
      .execute();
    const page = rows.slice(0, options.limit);
    const last = page[page.length - 1];
    return { runs: page.map(fromRow), nextBefore: rows.length > options.limit ? runCursor(last.started_at, last.id) : null };
  }

  /** How many runs of each flow started at or after `since` (one grouped query; flows without runs absent). */
  async countsSince(orgId: number, since: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('runs')
      .select((eb) => ['flow', eb.fn.countAll<number | string>().as('runs')])
      .where('org_id', '=', orgId)
      .where('started_at', '>=', since)
      .groupBy('flow')
      .execute();
    return new Map(rows.map((r) => [r.flow, Number(r.runs)]));
  }

  /** What statistics need of every run started at or after `since`, in start order: no inputs, outputs or traces. */
  async statsRows(orgId: number, since: string): Promise<RunStatsRow[]> {
    const rows = await this.db
      .selectFrom('runs')
      .select(['flow', 'status', 'latency_ms', 'started_at', 'usage', 'cost_usd'])
      .where('org_id', '=', orgId)
      .where('started_at', '>=', since)
      .orderBy('started_at')
      .execute();
    return rows.map((r) => {
      const usage = JSON.parse(r.usage) as Partial<Usage>;
      return {
        flow: r.flow,
        status: r.status as RunStatus,
        latencyMs: r.latency_ms,
        startedAt: r.started_at,
        promptTokens: usage.prompt_tokens ?? 0,
        completionTokens: usage.completion_tokens ?? 0,
        costUsd: r.cost_usd === null || r.cost_usd === undefined ? 0 : Number(r.cost_usd),
      };
    });
  }

  /**
   * Marks runs still `running` that started before `startedBefore` as failed
   * with `error` (their instance died: no live instance lets a run pass its
   * timeout); returns their ids. A record written later by a live run still
   * wins (upsert).
   */
  async failAbandoned(startedBefore: string, error: unknown, now: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('runs')
      .set({ status: 'failed', error: JSON.stringify(error), finished_at: now })
      .where('status', '=', 'running')
      .where('started_at', '<', startedBefore)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** One run of the organization, if it exists. */
  async get(orgId: number, id: string): Promise<RunRecord | undefined> {
    const row = await this.db.selectFrom('runs').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }
}

// toRow and fromRow name every column, one way and back: the mapping is the declaration.
/** Serializes a record for upsert; throws when a value nests too deep for JSON.stringify (a tool's answer can). */
function toRow(run: RunRecord): RunRow {
  return {
    id: run.id,
    org_id: run.orgId,
    flow: run.flow,
    version: run.version,
    status: run.status,
    input: JSON.stringify(run.input ?? {}),
    metadata: JSON.stringify(run.metadata ?? {}),
    output: run.output === undefined ? null : JSON.stringify(run.output),
    error: run.error === undefined || run.error === null ? null : JSON.stringify(run.error),
    usage: JSON.stringify(run.usage),
    latency_ms: run.latencyMs,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    trace: JSON.stringify(run.trace),
    trigger: run.trigger,
    schedule: run.schedule,
    cost_usd: run.cost?.usd ?? null,
    cost_priced: run.cost ? (run.cost.priced ? 1 : 0) : null,
  };
}

function fromRow(row: RunRow): RunRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    flow: row.flow,
    version: row.version,
    status: row.status as RunRecord['status'],
    input: JSON.parse(row.input),
    metadata: JSON.parse(row.metadata),
    output: row.output === null ? null : JSON.parse(row.output),
    error: row.error === null ? null : JSON.parse(row.error),
    usage: JSON.parse(row.usage),
    latencyMs: row.latency_ms,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    trace: JSON.parse(row.trace),
    deletedFlowName: row.deleted_flow_name ?? null,
    trigger: (row.trigger ?? 'api') as RunTrigger,
    schedule: row.schedule ?? null,
    cost: row.cost_usd === null || row.cost_usd === undefined ? null : { usd: Number(row.cost_usd), priced: Number(row.cost_priced) === 1 },
  };
}

/** writeNow's records of one statement, and who waits for them. */
interface NowBatch {
  rows: Map<string, RunRow>;
  waiters: Array<{ resolve(): void; reject(error: unknown): void }>;
  /** Turns of the event loop it has waited past the first, and its callers at the last of them. */
  turns: number;
  seen: number;
}

/**
 * Puts a run's record (or its row) in a statement's map of one per run: a run's end replaces whatever came before
 * it, a `running` record only fills an empty place, so the end wins whichever was asked for last.
 */
function keepEnd<T>(byRun: Map<string, T>, run: RunRecord, value: T): void {
  if (run.status !== 'running' || !byRun.has(run.id)) byRun.set(run.id, value);
}

/** Most records in one writeNow statement (the rest start another). */
const NOW_BATCH_ROWS = 200;
/** Most turns of the event loop a writeNow statement waits past the first while records keep joining it. */
const NOW_BATCH_TURNS = 4;

/**
 * Writes run records in batches: the records queued during one tick are
 * inserted together (one statement per batch, so a busy instance does not pay
 * one write per run). record() resolves after its batch's first write attempt,
 * and a run's answer waits for it: a run answered 2xx is in the database even
 * if the process dies right after (kill -9). A failed batch does not hold the
 * answer: it is retried in the background, and `flush()` (run reads,
 * shutdown) waits for every queued record, so none is dropped while the
 * process lives.
 */
export class RunRecorder {
  private queue: Array<{ run: RunRecord; tried: () => void }> = [];
  private now: NowBatch | undefined;
  private writing: Promise<void> | undefined;
  /** Called for every record queued (metrics). */
  onRecord: ((run: RunRecord) => void) | undefined;

  constructor(
    private readonly store: RunStore,
    private readonly logger: Logger,
  ) {}

  /** Queues a record; resolves once its batch was written, or its first attempt failed (then retried in the background). Never rejects. */
  record(run: RunRecord): Promise<void> {
    this.onRecord?.(run);
    return new Promise((tried) => {
      this.queue.push({ run, tried });
      this.writing ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    // Yield first so that the records of every run ending in this tick go in one statement.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const items = this.queue.splice(0, 100);
      // One row per run in a statement: its end wins over a `running` record, whichever was queued last.
      const latest = new Map<string, RunRecord>();
      for (const { run } of items) keepEnd(latest, run, run);
      const rows: RunRow[] = [];
      for (const run of latest.values()) {
        try {
          rows.push(toRow(run));
        } catch (error) {
          // Serialized one by one: a record that cannot be must not fail, and so drop, the rest of its batch.
          this.logger.error({ err: error, run_id: run.id }, 'could not serialize run record');
        }
      }
      const tried = () => {
        for (const item of items) item.tried();
      };
      if (rows.length > 0) await this.write(rows, tried);
      else tried();
    }
    this.writing = undefined;
  }

  private async write(batch: RunRow[], tried: () => void): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.store.upsert(batch);
        if (attempt === 1) tried();
        return;
      } catch (error) {
        if (attempt === 1) tried();
        if (attempt >= 5) {
          this.logger.error({ err: error, run_ids: batch.map((r) => r.id) }, 'could not record runs');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      }
    }
  }

  /**
   * Writes a record now and resolves when it is stored (rejects when it could not be): a streaming run is
   * recorded `running` before its first byte (which carries X-Run-Id), so its id is found even if this process
   * dies mid-run. The records asked for in one turn of the event loop go in one statement (streams opened
   * together: one commit instead of one each), and every caller waits for that statement. A statement to which
   * the last turn added records waits one more (at most NOW_BATCH_TURNS): a loop busy with one request a turn
   * (streams opening in a row) then pays one commit for a few instead of one each (a `running` record alone cost
   * ~165 µs of CPU, ~40 µs a record ten at a time); an idle loop writes at the first turn that adds none, a few
   * microseconds later.
   */
  writeNow(run: RunRecord): Promise<void> {
    this.onRecord?.(run);
    let row: RunRow;
    try {
      row = toRow(run);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      if (!this.now) {
        const batch: NowBatch = { rows: new Map(), waiters: [], turns: 0, seen: 0 };
        this.now = batch;
        const due = () => {
          if (this.now === batch && batch.waiters.length > batch.seen && batch.turns < NOW_BATCH_TURNS) {
            batch.seen = batch.waiters.length;
            batch.turns += 1;
            // An immediate set while immediates run waits for the next turn.
            setImmediate(due);
            return;
          }
          if (this.now === batch) this.now = undefined;
          this.writeNowBatch(batch);
        };
        setImmediate(due);
      }
      // One row per run in a statement (PostgreSQL refuses a statement that updates a row twice).
      keepEnd(this.now.rows, run, row);
      this.now.waiters.push({ resolve, reject });
      if (this.now.waiters.length >= NOW_BATCH_ROWS) this.now = undefined;
    });
  }

  private writeNowBatch(batch: NowBatch): void {
    this.store.upsert([...batch.rows.values()]).then(
      () => {
        for (const waiter of batch.waiters) waiter.resolve();
      },
      (error: unknown) => {
        for (const waiter of batch.waiters) waiter.reject(error);
      },
    );
  }

  /** Resolves when every queued record is written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }
}
