import type { BoardContext } from './board-context.ts';
import type { Db } from '../store/project-store.ts';
import { insertEvents, type EventKind, type NewEvent } from '../store/event-store.ts';

/**
 * The events of one change, collected while its transaction runs and recorded at its end, in the same
 * transaction: the live-update stream sees a change exactly when it is committed, never one that rolled back.
 */
export class ChangeLog {
  readonly events: NewEvent[] = [];

  constructor(private readonly ctx: Pick<BoardContext, 'actor' | 'now'>) {}

  private add(kind: EventKind, action: string, fields: { key?: string; slug?: string }, at: string | undefined, actor: string | undefined) {
    this.events.push({ kind, action, ...fields, actor: actor ?? this.ctx.actor, at: at ?? this.ctx.now() });
  }

  /** A ticket changed (`action`: an activity action, `deleted` or `summarized`). */
  ticket(action: string, key: string, at?: string, actor?: string): void {
    this.add('ticket', action, { key }, at, actor);
  }

  /** A document was created, updated or deleted. */
  document(action: 'created' | 'updated' | 'deleted', slug: string, at?: string): void {
    this.add('document', action, { slug }, at, undefined);
  }

  /** The project's settings, boards, columns, labels, members or tokens changed. */
  project(action: string, at?: string): void {
    this.add('project', action, {}, at, undefined);
  }
}

// PostgreSQL deadlock and serialization failures: the transaction did nothing and may simply run again.
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Runs one change in a transaction with its events (ChangeLog), retrying when PostgreSQL picked it as a
 * deadlock victim; after the commit, the project's streams are woken.
 */
export async function inTransaction<T>(ctx: BoardContext, work: (trx: Db, log: ChangeLog) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const log = new ChangeLog(ctx);
    try {
      const result = await ctx.db.transaction().execute(async (trx) => {
        const value = await work(trx, log);
        if (log.events.length > 0) await insertEvents(trx, ctx.dialect, ctx.project.id, log.events, ctx.signal.notifyChannel ?? undefined);
        return value;
      });
      if (log.events.length > 0) ctx.signal.publish(ctx.project.id);
      return result;
    } catch (error) {
      if (attempt >= 3 || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
}
