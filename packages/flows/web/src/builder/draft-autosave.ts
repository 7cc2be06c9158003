// The canvas kept as the user's draft on the server (flows.md, "Drafts"): stored within a second of an
// edit, removed when the canvas is back to its saved version, sent once more as the page goes away.
import type { Definition } from '../canvas/definition.ts';
import type { BuilderStore } from './store.ts';

/** Where drafts go: the flow's draft on the service. */
export interface DraftSink {
  /** Stores the draft; `leaving`: the page is going away (the request must outlive it). */
  put(definition: Definition, baseVersion: number, leaving: boolean): Promise<unknown>;
  remove(): Promise<unknown>;
}

/** What the autosave last did, for the toolbar. */
export type DraftState = { kind: 'none' } | { kind: 'saved'; at: number } | { kind: 'failed'; message: string };

/** Timers, replaceable in tests. */
export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = { set: (run, ms) => setTimeout(run, ms), clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) };

/** An edit is stored at most this long after it was made (the contract's bound is 2 s). */
export const DRAFT_DELAY_MS = 1000;
/** A failed store is tried again after this long. */
const RETRY_MS = 3000;

/**
 * Stores the builder's canvas as the user's draft. The first edit after the
 * last store schedules the next one DRAFT_DELAY_MS later; edits meanwhile do
 * not postpone it (a long drag is stored as it goes), and an edit made while a
 * store is on its way is stored after it. A canvas back at its saved version
 * removes the draft; a save (the version changes) has cleared it on the service.
 */
export class DraftAutosave {
  private timer: unknown;
  private drafted: number;
  private version: number;
  private exists: boolean;
  private sending: Promise<void> | undefined;
  private stopped = false;
  private readonly delayMs: number;
  private readonly timers: Timers;
  private readonly now: () => number;
  /** Called after each store or failure. */
  onState: ((state: DraftState) => void) | undefined;

  constructor(
    private readonly store: BuilderStore,
    private readonly sink: DraftSink,
    options: { exists?: boolean; delayMs?: number; timers?: Timers; now?: () => number } = {},
  ) {
    const state = store.getState();
    this.drafted = state.revision;
    this.version = state.version;
    this.exists = options.exists ?? false;
    this.delayMs = options.delayMs ?? DRAFT_DELAY_MS;
    this.timers = options.timers ?? realTimers;
    this.now = options.now ?? Date.now;
  }

  /** Follows the store's changes until the returned function is called. */
  start(): () => void {
    this.stopped = false;
    const unsubscribe = this.store.subscribe(this.changed);
    return () => {
      unsubscribe();
      this.stopped = true;
      if (this.timer !== undefined) this.timers.clear(this.timer);
      this.timer = undefined;
    };
  }

  /** The draft was discarded (and the canvas reloaded): nothing to store until the next edit. */
  discarded(): void {
    this.exists = false;
    this.drafted = this.store.getState().revision;
    this.version = this.store.getState().version;
    this.onState?.({ kind: 'none' });
  }

  private readonly changed = (): void => {
    const state = this.store.getState();
    if (state.version !== this.version) {
      // Saved as a new version: the service cleared the draft with it.
      this.version = state.version;
      this.exists = false;
      if (!state.dirty) this.drafted = state.revision;
    }
    if (state.revision !== this.drafted) this.schedule(this.delayMs);
  };

  private schedule(ms: number): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      void this.flush();
    }, ms);
  }

  /** Stores what is not stored yet now; `leaving`: the page is going away. */
  async flush(leaving = false): Promise<void> {
    if (this.timer !== undefined) {
      this.timers.clear(this.timer);
      this.timer = undefined;
    }
    if (this.sending) await this.sending;
    const state = this.store.getState();
    if (state.revision === this.drafted) return;
    const revision = state.revision;
    this.sending = (async () => {
      try {
        if (state.dirty) {
          await this.sink.put(this.store.definition(), state.version, leaving);
          this.exists = true;
          this.onState?.({ kind: 'saved', at: this.now() });
        } else if (this.exists) {
          await this.sink.remove();
          this.exists = false;
          this.onState?.({ kind: 'none' });
        }
        this.drafted = revision;
      } catch (reason) {
        this.onState?.({ kind: 'failed', message: (reason as Error).message });
        this.schedule(RETRY_MS);
      } finally {
        this.sending = undefined;
      }
    })();
    await this.sending;
    if (this.store.getState().revision !== this.drafted) this.schedule(this.delayMs);
  }
}
