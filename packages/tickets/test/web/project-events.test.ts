import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeEvent } from '../../web/src/api/types.ts';
import { ProjectEvents } from '../../web/src/live/project-events.ts';

/** A stand-in for the browser's EventSource: the test plays the service's side. */
class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onerror: (() => void) | null = null;
  private listeners = new Map<string, Array<(message: { data: string }) => void>>();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(name: string, listener: (message: { data: string }) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(name: string, data: unknown) {
    this.readyState = FakeEventSource.OPEN;
    for (const listener of this.listeners.get(name) ?? []) listener({ data: JSON.stringify(data) });
  }
  fail(closed: boolean) {
    this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.onerror?.();
  }
}

const change = (seq: number, key: string): ChangeEvent => ({ seq, kind: 'ticket', action: 'moved', key, actor: 'token:agent', at: '2025-01-01T00:00:00Z' });

describe('ProjectEvents (the page side of the live stream)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.opened = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('says Live after ready, and hands changes arriving together to subscribers as one batch', () => {
    const events = new ProjectEvents('/api/projects/DEMO/events');
    const statuses: string[] = [];
    const batches: ChangeEvent[][] = [];
    events.onStatus((status) => statuses.push(status));
    events.subscribe({ changes: (batch) => batches.push(batch) });
    const source = FakeEventSource.opened[0]!;
    expect(source.url).toBe('/api/projects/DEMO/events');
    expect(events.status).toBe('connecting');
    source.emit('ready', { seq: 4 });
    source.emit('change', change(5, 'DEMO-1'));
    source.emit('change', change(6, 'DEMO-2'));
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(20);
    expect(batches).toEqual([[change(5, 'DEMO-1'), change(6, 'DEMO-2')]]);
    expect(statuses).toEqual(['live']);
    events.close();
  });

  it("says Reconnecting… while the browser's own reconnect runs, and does not re-read everything after it", () => {
    const events = new ProjectEvents('/e');
    const resyncs = vi.fn();
    events.subscribe({ resync: resyncs });
    const source = FakeEventSource.opened[0]!;
    source.emit('ready', { seq: 1 });
    source.fail(false);
    expect(events.status).toBe('reconnecting');
    source.emit('ready', { seq: 3 });
    expect(events.status).toBe('live');
    expect(resyncs).not.toHaveBeenCalled();
    expect(FakeEventSource.opened).toHaveLength(1);
    events.close();
  });

  it('opens a new stream resuming after the last event seen when the browser gave up', () => {
    const events = new ProjectEvents('/e');
    const resyncs = vi.fn();
    events.subscribe({ resync: resyncs });
    const first = FakeEventSource.opened[0]!;
    first.emit('ready', { seq: 10 });
    first.emit('change', change(11, 'DEMO-1'));
    first.fail(true);
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.opened.map((s) => s.url)).toEqual(['/e', '/e?since=11']);
    FakeEventSource.opened[1]!.emit('ready', { seq: 12 });
    expect(resyncs).not.toHaveBeenCalled();
    events.close();
  });

  it('tells subscribers to read everything again when the service cannot replay what was missed (ready.reset)', () => {
    const events = new ProjectEvents('/e');
    const resyncs = vi.fn();
    events.subscribe({ resync: resyncs });
    const source = FakeEventSource.opened[0]!;
    source.emit('ready', { seq: 1 });
    source.fail(false);
    source.emit('ready', { seq: 90, reset: true });
    expect(resyncs).toHaveBeenCalledTimes(1);
    events.close();
  });

  it('re-reads everything after a long time offline, and stops calling subscribers once closed', () => {
    const events = new ProjectEvents('/e');
    const resyncs = vi.fn();
    const batches = vi.fn();
    events.subscribe({ resync: resyncs, changes: batches });
    const source = FakeEventSource.opened[0]!;
    source.emit('ready', { seq: 1 });
    source.fail(false);
    vi.advanceTimersByTime(6 * 60_000);
    source.emit('ready', { seq: 2 });
    expect(resyncs).toHaveBeenCalledTimes(1);
    events.close();
    source.emit('change', change(3, 'DEMO-1'));
    vi.advanceTimersByTime(20);
    expect(batches).not.toHaveBeenCalled();
  });
});
