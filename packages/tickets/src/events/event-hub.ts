import type { Logger, WakeBus } from '@switchboard/core';
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

/** One open stream: the last event it sent, and where its next ones go. */
interface Subscriber {
  lastSeq: number;
  deliver(events: readonly ChangeMessage[]): void;
}

/** The streams of one project, and whether its events are being read. */
interface ProjectStreams {
  subscribers: Set<Subscriber>;
  reading: boolean;
  again: boolean;
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

// Rows read per query while catching up.
const BATCH = 500;
// How often old events are pruned.
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Fans the events table out to the open streams of this instance. The table is the source of truth: a
 * wake-up (a commit here, pg_notify, Redis, or the safety poll) makes the hub read, once per project, the rows
 * after the oldest position of that project's streams and hand each stream the ones after its own; so every
 * stream gets every event once and in order, whether or not a wake-up was lost.
 */
export class EventHub {
  private readonly projects = new Map<string, ProjectStreams>();
  private readonly unlisten: () => void;
  private readonly poll: NodeJS.Timeout;
  private readonly prune: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: EventHubOptions) {
    this.unlisten = options.bus.listen((topic) => this.wake(topic === undefined ? undefined : topic.split(':')[0]));
    this.poll = setInterval(() => this.wake(undefined), options.pollMs);
    this.poll.unref();
    this.prune = setInterval(() => void this.pruneNow(), PRUNE_EVERY_MS);
    this.prune.unref();
  }

  /** Adds a stream that has sent everything up to `lastSeq`; it is handed every later event. Returns its removal. */
  subscribe(projectId: string, lastSeq: number, deliver: (events: readonly ChangeMessage[]) => void): () => void {
    let project = this.projects.get(projectId);
    if (!project) this.projects.set(projectId, (project = { subscribers: new Set(), reading: false, again: false }));
    const subscriber: Subscriber = { lastSeq, deliver };
    project.subscribers.add(subscriber);
    // What was committed between the caller's look at the latest number and now.
    this.wake(projectId);
    return () => {
      project.subscribers.delete(subscriber);
      if (project.subscribers.size === 0 && !project.reading && this.projects.get(projectId) === project) this.projects.delete(projectId);
    };
  }

  /** Number of open streams (metrics, tests). */
  get streams(): number {
    let n = 0;
    for (const project of this.projects.values()) n += project.subscribers.size;
    return n;
  }

  /** Looks for new events of a project (every project with streams when undefined). */
  wake(projectId: string | undefined): void {
    if (this.closed) return;
    const ids = projectId === undefined ? [...this.projects.keys()] : [projectId];
    for (const id of ids) {
      const project = this.projects.get(id);
      if (!project) continue;
      if (project.reading) {
        project.again = true;
        continue;
      }
      project.reading = true;
      void this.read(id, project);
    }
  }

  private async read(projectId: string, project: ProjectStreams): Promise<void> {
    try {
      do {
        project.again = false;
        for (;;) {
          if (project.subscribers.size === 0 || this.closed) break;
          const from = Math.min(...[...project.subscribers].map((s) => s.lastSeq));
          const rows = await eventsAfter(this.options.db, projectId, from, BATCH);
          if (rows.length === 0) break;
          const events = rows.map(presentEvent);
          for (const subscriber of project.subscribers) {
            const fresh = events.filter((event) => event.seq > subscriber.lastSeq);
            if (fresh.length === 0) continue;
            subscriber.lastSeq = fresh[fresh.length - 1].seq;
            subscriber.deliver(fresh);
          }
          if (rows.length < BATCH) break;
        }
      } while (project.again && !this.closed);
    } catch (error) {
      // The next wake-up or poll tries again.
      this.options.logger.warn({ err: error, projectId }, 'reading change events failed');
    } finally {
      project.reading = false;
      if (project.subscribers.size === 0 && this.projects.get(projectId) === project) this.projects.delete(projectId);
    }
  }

  /** Deletes events past the retention (older than keepMs, or beyond keepPerProject per project). */
  async pruneNow(now = Date.now()): Promise<number> {
    try {
      return await pruneEvents(this.options.db, new Date(now - this.options.keepMs).toISOString(), this.options.keepPerProject);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'pruning change events failed');
      return 0;
    }
  }

  /** Stops listening and polling (the streams themselves are closed by their routes). */
  close(): void {
    this.closed = true;
    this.unlisten();
    clearInterval(this.poll);
    clearInterval(this.prune);
  }
}
