import { ChangeHub, type Logger, type WakeBus } from '@switchboard/core';
import type { Db } from '../store/project-store.ts';
import { eventsAfter, pruneEvents, type EventRow } from '../store/event-store.ts';

/** A change as the stream sends it (README, "Live updates"). */
export interface ChangeMessage {
  seq: number;
  kind: string;
  action: string;
  key?: string;
  slug?: string;
  actor: string;
  at: string;
}

/** The wire form of an event row: `key` only for tickets, `slug` only for documents. */
export function presentEvent(row: EventRow): ChangeMessage {
  return {
    seq: Number(row.seq),
    kind: row.kind,
    action: row.action,
    ...(row.ticket_key !== null ? { key: row.ticket_key } : {}),
    ...(row.doc_slug !== null ? { slug: row.doc_slug } : {}),
    actor: row.actor,
    at: row.created_at,
  };
}

/** Options of the hub. */
export interface EventHubOptions {
  db: Db;
  bus: WakeBus;
  logger: Logger;
  /** The safety poll: how often every open stream looks for events it was not woken for, in ms. */
  pollMs: number;
  /** Events older than this many ms are deleted in the background. */
  keepMs: number;
  /** At most this many events are kept per project. */
  keepPerProject: number;
}

// How often old events are pruned.
const PRUNE_EVERY_MS = 3_600_000;

/**
 * The events table fanned out to the open streams of this instance (core's ChangeHub, one scope per
 * project), and its retention: old events are pruned in the background.
 */
export class EventHub extends ChangeHub<ChangeMessage> {
  private readonly prune: NodeJS.Timeout;

  constructor(private readonly hubOptions: EventHubOptions) {
    super({
      bus: hubOptions.bus,
      logger: hubOptions.logger,
      pollMs: hubOptions.pollMs,
      read: async (projectId, after, limit) => {
        const rows = await eventsAfter(hubOptions.db, projectId, after, limit);
        return { changes: rows.map(presentEvent), more: rows.length === limit };
      },
    });
    this.prune = setInterval(() => void this.pruneNow(), PRUNE_EVERY_MS);
    this.prune.unref();
  }

  /** Deletes events past the retention (older than keepMs, or beyond keepPerProject per project). */
  async pruneNow(now = Date.now()): Promise<number> {
    try {
      return await pruneEvents(this.hubOptions.db, new Date(now - this.hubOptions.keepMs).toISOString(), this.hubOptions.keepPerProject);
    } catch (error) {
      this.hubOptions.logger.warn({ err: error }, 'pruning change events failed');
      return 0;
    }
  }

  /** Stops listening, polling and pruning (the streams themselves are closed by their routes). */
  override close(): void {
    super.close();
    clearInterval(this.prune);
  }
}
