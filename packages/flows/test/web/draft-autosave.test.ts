import { describe, expect, it } from 'vitest';
import type { Definition } from '../../web/src/canvas/definition.ts';
import { DraftAutosave, type Timers } from '../../web/src/builder/draft-autosave.ts';
import { BuilderStore } from '../../web/src/builder/store.ts';

function starter(): Definition {
  return {
    name: 'Starter',
    slug: 'starter',
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'message', type: 'string', required: true }] }, position: { x: 0, y: 0 } },
      { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 400, y: 0 } },
    ],
    edges: [{ from: 'input', to: 'output' }],
  };
}

/** Timers that fire when the test says time has passed. */
function fakeTimers() {
  let now = 0;
  let next = 1;
  const due = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    set: (run, ms) => {
      const id = next++;
      due.set(id, { at: now + ms, run });
      return id;
    },
    clear: (handle) => void due.delete(handle as number),
  };
  return {
    timers,
    now: () => now,
    pending: () => due.size,
    /** Moves time on, running what falls due, and lets the stores' promises settle. */
    async advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...due]) {
        if (timer.at > now) continue;
        due.delete(id);
        timer.run();
      }
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

function recordingSink() {
  const calls: Array<{ kind: 'put' | 'remove'; names?: string[]; base?: number; leaving?: boolean }> = [];
  let fail = false;
  return {
    calls,
    failNext: () => (fail = true),
    sink: {
      async put(definition: Definition, base: number, leaving: boolean) {
        if (fail) {
          fail = false;
          throw new Error('The service could not be reached.');
        }
        calls.push({ kind: 'put', names: definition.nodes.map((n) => n.id), base, leaving });
      },
      async remove() {
        calls.push({ kind: 'remove' });
      },
    },
  };
}

describe('draft autosave', () => {
  it('stores an edit a second after it was made, however many edits follow, and again after the next edit', async () => {
    const time = fakeTimers();
    const store = new BuilderStore(starter(), 3);
    const { calls, sink } = recordingSink();
    const autosave = new DraftAutosave(store, sink, { timers: time.timers, now: time.now });
    const states: string[] = [];
    autosave.onState = (state) => states.push(state.kind);
    autosave.start();
    store.addNode('llm', { x: 200, y: 0 });
    await time.advance(600);
    store.addNode('template', { x: 200, y: 200 });
    await time.advance(400);
    expect(calls).toEqual([{ kind: 'put', names: ['input', 'output', 'llm', 'template'], base: 3, leaving: false }]);
    await time.advance(5000);
    expect(calls).toHaveLength(1);
    store.setMeta({ name: 'Renamed' });
    await time.advance(999);
    expect(calls).toHaveLength(1);
    await time.advance(1);
    expect(calls).toHaveLength(2);
    expect(states).toEqual(['saved', 'saved']);
  });

  it('removes the draft when the canvas is back at its saved version, and forgets it once a version is saved', async () => {
    const time = fakeTimers();
    const store = new BuilderStore(starter(), 1);
    const { calls, sink } = recordingSink();
    new DraftAutosave(store, sink, { timers: time.timers }).start();
    store.addNode('llm', { x: 200, y: 0 });
    await time.advance(1000);
    store.undo();
    await time.advance(1000);
    expect(calls.map((c) => c.kind)).toEqual(['put', 'remove']);

    store.addNode('llm', { x: 200, y: 0 });
    await time.advance(1000);
    store.markSaved(2, store.definition());
    await time.advance(5000);
    // The save cleared the draft on the service: nothing to remove.
    expect(calls.map((c) => c.kind)).toEqual(['put', 'remove', 'put']);
    store.addNode('template', { x: 0, y: 200 });
    await time.advance(1000);
    expect(calls.at(-1)).toMatchObject({ kind: 'put', base: 2 });
  });

  it('tries again after a failure, and sends what is left at once as the page goes away', async () => {
    const time = fakeTimers();
    const store = new BuilderStore(starter(), 1);
    const { calls, sink, failNext } = recordingSink();
    const autosave = new DraftAutosave(store, sink, { timers: time.timers });
    const states: string[] = [];
    autosave.onState = (state) => states.push(state.kind === 'failed' ? `failed: ${state.message}` : state.kind);
    autosave.start();
    failNext();
    store.addNode('llm', { x: 200, y: 0 });
    await time.advance(1000);
    expect([calls.length, states]).toEqual([0, ['failed: The service could not be reached.']]);
    await time.advance(3000);
    expect(calls).toHaveLength(1);

    store.addNode('template', { x: 0, y: 200 });
    await autosave.flush(true);
    expect(calls.at(-1)).toMatchObject({ kind: 'put', leaving: true, names: ['input', 'output', 'llm', 'template'] });
    expect(time.pending()).toBe(0);
  });

  it('starts from a restored draft without storing it again, and stores nothing after Discard', async () => {
    const time = fakeTimers();
    const store = new BuilderStore(starter(), 1);
    store.replaceDefinition({ ...starter(), name: 'From the draft' });
    const { calls, sink } = recordingSink();
    const autosave = new DraftAutosave(store, sink, { timers: time.timers, exists: true });
    autosave.start();
    await time.advance(2000);
    expect(calls).toEqual([]);
    store.load(starter(), 1);
    autosave.discarded();
    await time.advance(2000);
    expect(calls).toEqual([]);
  });
});
