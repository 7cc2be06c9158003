import { describe, expect, it } from 'vitest';
import { ChangeHub, createLogger, createWakeBus } from '../src/index.ts';

interface Change {
  seq: number;
  what: string;
}

/** A table of numbered changes per scope, read as a service's store would. */
function table() {
  const rows = new Map<string, Change[]>();
  let reads = 0;
  return {
    add(scope: string, change: Change) {
      rows.set(scope, [...(rows.get(scope) ?? []), change]);
    },
    async read(scope: string, after: number, limit: number) {
      reads += 1;
      const later = (rows.get(scope) ?? []).filter((change) => change.seq > after);
      return { changes: later.slice(0, limit), more: later.length > limit };
    },
    get reads() {
      return reads;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('ChangeHub', () => {
  it('hands each stream the changes after its own position, in order, once, as wake-ups name the scope', async () => {
    const logger = createLogger({ service: 'test', level: 'silent' });
    const bus = await createWakeBus({ channel: 'test', logger });
    const changes = table();
    const hub = new ChangeHub<Change>({ bus, logger, pollMs: 60_000, batch: 2, read: (scope, after, limit) => changes.read(scope, after, limit) });
    changes.add('a', { seq: 1, what: 'old' });
    const early: Change[] = [];
    const late: Change[] = [];
    const other: Change[] = [];
    hub.subscribe('a', 0, (batch) => early.push(...batch));
    hub.subscribe('a', 1, (batch) => late.push(...batch));
    hub.subscribe('b', 0, (batch) => other.push(...batch));
    await settle();
    expect(early.map((c) => c.seq)).toEqual([1]);
    expect(late).toEqual([]);
    for (const seq of [2, 3, 4, 5, 6]) changes.add('a', { seq, what: `new ${seq}` });
    bus.publish('a:6');
    await settle();
    // Five changes in batches of two: the hub reads on while the store says more may follow.
    expect(early.map((c) => c.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(late.map((c) => c.seq)).toEqual([2, 3, 4, 5, 6]);
    expect(other).toEqual([]);
    expect(hub.streams).toBe(3);
    hub.close();
    await bus.close();
  });

  it('finds a change it was not woken for at the next poll, and stops reading a scope whose streams closed', async () => {
    const logger = createLogger({ service: 'test', level: 'silent' });
    const bus = await createWakeBus({ channel: 'test', logger });
    const changes = table();
    const hub = new ChangeHub<Change>({ bus, logger, pollMs: 30, read: (scope, after, limit) => changes.read(scope, after, limit) });
    const seen: Change[] = [];
    const unsubscribe = hub.subscribe('a', 0, (batch) => seen.push(...batch));
    changes.add('a', { seq: 1, what: 'lost wake-up' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.map((c) => c.seq)).toEqual([1]);
    unsubscribe();
    await settle();
    const reads = changes.reads;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(changes.reads).toBe(reads);
    expect(hub.streams).toBe(0);
    hub.close();
    await bus.close();
  });
});
