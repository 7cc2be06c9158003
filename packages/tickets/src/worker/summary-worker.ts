import { sql } from 'kysely';
import { databaseUnavailable, type DialectName, type Logger } from '@switchboard/core';
import type { ChangeSignal } from '../service/board-context.ts';
import { insertEvents } from '../store/event-store.ts';
import type { Db } from '../store/project-store.ts';
import { ticketKey } from '../domain/ticket-rules.ts';
import { latestComment } from '../store/ticket-store.ts';
import { extractiveSummarizer, type Summarizer, type Summary } from './summarizer.ts';

/** Options of the summary worker. */
export interface SummaryWorkerOptions {
  db: Db;
  dialect: DialectName;
  /** Announces a refreshed summary to the live-update streams (a `summarized` event). */
  signal: ChangeSignal;
  summarizer: Summarizer;
  logger: Logger;
  /** Poll interval in ms (other instances' changes are found by polling). */
  intervalMs: number;
  /** Tickets claimed per round. */
  batchSize?: number;
  /** How long a claim holds before another worker may take the job, in ms. */
  claimMs?: number;
}

interface DueTicket {
  id: string;
  number: number;
  title: string;
  description: string;
  summary_version: number;
  project_id: string;
  project_key: string;
}

/**
 * Refreshes ticket summaries in the background. A write only bumps the
 * ticket's summary_version; this worker claims due tickets (FOR UPDATE SKIP
 * LOCKED on PostgreSQL, so any number of instances share the work), makes the
 * summary and stores it without touching updated_at.
 */
export class SummaryWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(private readonly options: SummaryWorkerOptions) {}

  /** Starts polling. */
  start(): void {
    this.timer = setInterval(() => this.poke(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Asks for a round soon (after a write in this process). */
  poke(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.closed && (await this.runOnce()) > 0);
        } while (this.again && !this.closed);
      } catch (error) {
        if (databaseUnavailable(error)) this.options.logger.warn({ err: error }, 'summary round: the database is unavailable; the next round tries again');
        else this.options.logger.error({ err: error }, 'summary round failed');
      } finally {
        this.running = undefined;
      }
    })();
  }

  /** Runs rounds until nothing is due (tests use this instead of waiting). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
    while ((await this.runOnce()) > 0);
  }

  /** One round: claims a batch of due tickets and refreshes their summaries; returns how many. */
  async runOnce(): Promise<number> {
    const due = await this.claim();
    for (const ticket of due) await this.refresh(ticket);
    return due.length;
  }

  private async claim(): Promise<DueTicket[]> {
    const { db, dialect } = this.options;
    const now = new Date();
    const until = new Date(now.getTime() + (this.options.claimMs ?? 120_000)).toISOString();
    const limit = this.options.batchSize ?? 10;
    const lock = dialect === 'postgres' ? sql`FOR UPDATE OF t SKIP LOCKED` : sql``;
    const result = await sql<Omit<DueTicket, 'project_key'> & { project_id: string }>`
      UPDATE tickets SET summary_claimed_until = ${until}
      WHERE id IN (
        SELECT t.id FROM tickets t JOIN projects p ON p.id = t.project_id
        WHERE p.auto_summary = 1 AND t.summarized_version < t.summary_version
          AND (t.summary_claimed_until IS NULL OR t.summary_claimed_until < ${now.toISOString()})
        ORDER BY t.updated_at LIMIT ${limit} ${lock})
      RETURNING id, project_id, number, title, description, summary_version`.execute(db);
    if (result.rows.length === 0) return [];
    const projects = await db
      .selectFrom('projects')
      .select(['id', 'key'])
      .where('id', 'in', [...new Set(result.rows.map((r) => r.project_id))])
      .execute();
    const keyOf = new Map(projects.map((p) => [p.id, p.key]));
    return result.rows.map((row) => ({ ...row, project_key: keyOf.get(row.project_id) ?? '?' }));
  }

  private async refresh(ticket: DueTicket): Promise<void> {
    const { db, dialect, signal, summarizer, logger } = this.options;
    const input = {
      key: ticketKey(ticket.project_key, ticket.number),
      title: ticket.title,
      description: ticket.description,
      latestComment: await latestComment(db, ticket.id),
    };
    let summary: Summary;
    try {
      summary = await summarizer.summarize(input);
    } catch (error) {
      // The board never waits for a model: without one, the extractive summary stands in.
      logger.warn({ err: error, ticket: input.key }, 'LLM summary failed; using an extractive summary');
      summary = await extractiveSummarizer.summarize(input);
    }
    // Not updated_at: a summary refresh is not a change of the ticket; but an open board shows the new summary.
    await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('tickets')
        .set({ ai_summary: summary.text, ai_summary_source: summary.source, summarized_version: ticket.summary_version, summary_claimed_until: null })
        .where('id', '=', ticket.id)
        .executeTakeFirst();
      // A ticket deleted while it was summarized has nothing to announce.
      if (Number(updated.numUpdatedRows) === 0) return;
      const event = { kind: 'ticket' as const, action: 'summarized', key: input.key, actor: 'system', at: new Date().toISOString() };
      await insertEvents(trx, dialect, ticket.project_id, [event], signal.notifyChannel);
    });
    signal.publish(ticket.project_id);
  }

  /** Stops polling and waits for the current round. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    while (this.running) await this.running;
  }
}
