import { beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { createLabel, withTicketsStore } from '../src/index.ts';
import { boardCaller, useBoard, type Caller } from './helpers.ts';
import { seedBoard, type SeededBoard } from './factories.ts';
import { signedInUser, webClient, type SignedIn } from './web-helpers.ts';

describe.each(dialectsUnderTest())("the board's cards (GET /api/projects/{KEY}/board) on %s", (dialect) => {
  const board = useBoard(dialect, { key: 'CARD' });
  let member: SignedIn;
  let call: Caller;
  let web: ReturnType<typeof webClient>;

  beforeAll(async () => {
    member = await signedInUser(board, 'mia@example.com', { memberOf: ['CARD', 'BIG'], name: 'Mia' });
    web = webClient(board, member);
    call = boardCaller(board);
    await withTicketsStore(board.env, (db) => createLabel(db, 'CARD', 'backend', '#2563eb'));
  });

  it("answers every ticket of the board as a card in its lane, in the lane's order (a new ticket on top)", async () => {
    const epic = await call('create_ticket', { title: 'Checkout', ticket_type: 'epic', labels: ['backend'], assignee: 'mia@example.com', priority: 'high' });
    const first = await call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'Cart page', column_name: 'To Do' });
    const second = await call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'Payment', column_name: 'Done' });
    const loose = await call('create_ticket', { title: 'Loose end', ticket_type: 'bug' });
    const answer = await web('/api/projects/CARD/board');
    expect(answer.status).toBe(200);
    const now = (await call('get_ticket', { ticket_id: epic.key })) as { updated_at: string; column: string };
    expect(answer.body).toEqual({
      board: { name: 'Main' },
      columns: [
        {
          name: 'Backlog',
          is_done_column: false,
          ticket_count: 1,
          cards: [
            {
              key: loose.key,
              title: 'Loose end',
              ticket_type: 'bug',
              priority: 'medium',
              labels: [],
              assignee: null,
              parent: null,
              progress: null,
              rank: expect.any(Number),
              updated_at: loose.updated_at,
              completed_at: null,
            },
          ],
        },
        {
          name: 'To Do',
          is_done_column: false,
          ticket_count: 1,
          cards: [
            {
              key: first.key,
              title: 'Cart page',
              ticket_type: 'task',
              priority: 'high',
              labels: [],
              assignee: null,
              parent: epic.key,
              progress: null,
              rank: expect.any(Number),
              updated_at: first.updated_at,
              completed_at: null,
            },
          ],
        },
        {
          name: 'In Progress',
          is_done_column: false,
          ticket_count: 1,
          cards: [
            {
              key: epic.key,
              title: 'Checkout',
              ticket_type: 'epic',
              priority: 'high',
              labels: [{ id: expect.any(String), name: 'backend', color: '#2563eb' }],
              assignee: { id: member.id, name: 'Mia', email: 'mia@example.com' },
              parent: null,
              progress: { done: 1, total: 2 },
              rank: expect.any(Number),
              updated_at: now.updated_at,
              completed_at: null,
            },
          ],
        },
        { name: 'Review', is_done_column: false, ticket_count: 0, cards: [] },
        {
          name: 'Done',
          is_done_column: true,
          ticket_count: 1,
          cards: [
            {
              key: second.key,
              title: 'Payment',
              ticket_type: 'task',
              priority: 'high',
              labels: [],
              assignee: null,
              parent: epic.key,
              progress: null,
              rank: expect.any(Number),
              updated_at: second.updated_at,
              completed_at: second.completed_at,
            },
          ],
        },
      ],
      complete: true,
    });
    expect(now.column).toBe('In Progress');
    await call('move_ticket', { ticket_id: loose.key, column_name: 'In Progress' });
    const lane = (await web('/api/projects/CARD/board')).body.columns[2];
    expect(lane.cards.map((card: { key: string }) => card.key)).toEqual([loose.key, epic.key]);
    const empty = await call('create_ticket', { title: 'Empty epic', ticket_type: 'epic' });
    expect((await web('/api/projects/CARD/board')).body.columns[0].cards[0]).toMatchObject({ key: empty.key, progress: { done: 0, total: 0 } });
  });

  it('picks a board by name without case, and refuses an unknown one listing the boards', async () => {
    await web('/api/projects/CARD/boards', { method: 'POST', body: { name: 'Ops', columns: ['Open', 'Closed'] } });
    await call('create_ticket', { title: 'On ops', column_name: 'Ops/Open' });
    const ops = await web('/api/projects/CARD/board?board=ops');
    expect(ops.body.board).toEqual({ name: 'Ops' });
    expect(ops.body.columns.map((c: { name: string; ticket_count: number; is_done_column: boolean }) => [c.name, c.ticket_count, c.is_done_column])).toEqual([
      ['Open', 1, false],
      ['Closed', 0, true],
    ]);
    const unknown = await web('/api/projects/CARD/board?board=Nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      error: { code: 'invalid_request', message: 'Unknown board "Nope". Valid values: Main, Ops.', details: { field: 'board', valid_values: ['Main', 'Ops'] } },
    });
    const extra = await web('/api/projects/CARD/board?lane=1');
    expect(extra.status).toBe(400);
    expect(extra.body.error.message).toBe('Invalid arguments for get_board: Unknown parameter "lane". Valid parameters: board, cards, keys.');
  });

  it('answers just the cards of some tickets (keys), each with its lane, as the whole board shows them; a ticket not on the board is left out', async () => {
    const epic = await call('create_ticket', { title: 'Keys epic', ticket_type: 'epic', labels: ['backend'], assignee: 'mia@example.com' });
    const sub = await call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'Keys sub', column_name: 'Review' });
    const gone = await call('create_ticket', { title: 'Deleted' });
    await call('delete_ticket', { ticket_id: gone.key });
    const ops = await call('create_ticket', { title: 'Keys on ops', column_name: 'Ops/Open' });
    const whole = (await web('/api/projects/CARD/board')).body as { columns: Array<{ name: string; cards: Array<{ key: string }> }> };
    const cardOf = (key: string) => {
      const lane = whole.columns.find((column) => column.cards.some((card) => card.key === key))!;
      return { ...lane.cards.find((card) => card.key === key)!, column: lane.name };
    };
    const answer = await web(`/api/projects/CARD/board?keys=${sub.key},${epic.key.toLowerCase()},${gone.key},${ops.key},CARD-999,${sub.key}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ board: { name: 'Main' }, cards: [cardOf(sub.key), cardOf(epic.key)] });
    expect(answer.body.cards[1]).toMatchObject({
      labels: [{ id: expect.any(String), name: 'backend', color: '#2563eb' }],
      assignee: { id: member.id, name: 'Mia', email: 'mia@example.com' },
      progress: { done: 0, total: 1 },
      rank: expect.any(Number),
    });
    expect(answer.body.cards[0]).toMatchObject({ parent: epic.key, column: 'Review' });
    const onOps = await web(`/api/projects/CARD/board?board=Ops&keys=${ops.key},${sub.key}`);
    expect(onOps.body).toEqual({
      board: { name: 'Ops' },
      cards: [
        { ...(await web('/api/projects/CARD/board?board=Ops')).body.columns[0].cards.find((card: { key: string }) => card.key === ops.key), column: 'Open' },
      ],
    });
    const refusals: Array<[string, string, string]> = [
      ['keys=CARD-1,nope', 'keys: "nope" is not a ticket key of project CARD (e.g. CARD-12).', 'keys'],
      ['keys=BIG-1', 'keys: "BIG-1" is not a ticket key of project CARD (e.g. CARD-12).', 'keys'],
      ['keys=', 'keys: "" is not a ticket key of project CARD (e.g. CARD-12).', 'keys'],
      [`keys=${Array.from({ length: 101 }, (_, i) => `CARD-${i + 1}`).join(',')}`, 'keys: names 101 tickets; at most 100 at a time.', 'keys'],
      ['keys=CARD-1&cards=5', 'keys and cards do not go together: keys reads the cards of those tickets only.', 'cards'],
    ];
    for (const [query, message, field] of refusals) {
      const refused = await web(`/api/projects/CARD/board?${query}`);
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400,
        body: { error: { code: 'invalid_request', message, details: { field } } },
      });
    }
  });

  describe('a board of 10,000 tickets', () => {
    let seeded: SeededBoard;
    beforeAll(async () => {
      await board.addProject('BIG');
      seeded = await seedBoard(board.env, 'BIG', { Backlog: 4000, 'To Do': 2000, 'In Progress': 1000, Review: 1000, Done: 2000 }, 0);
    });

    it('answers all of them, each lane in rank order (seeded as the upgrade ranks a lane: last updated first)', async () => {
      const answer = await web('/api/projects/BIG/board');
      expect(answer.status).toBe(200);
      expect(answer.body.complete).toBe(true);
      const lanes = answer.body.columns as Array<{
        name: string;
        ticket_count: number;
        cards: Array<{ key: string; updated_at: string; progress: unknown; parent: string | null }>;
      }>;
      expect(lanes.map((lane) => [lane.name, lane.ticket_count, lane.cards.length])).toEqual([
        ['Backlog', 4000, 4000],
        ['To Do', 2000, 2000],
        ['In Progress', 1000, 1000],
        ['Review', 1000, 1000],
        ['Done', 2000, 2000],
      ]);
      for (const lane of lanes) {
        const expected = seeded.tickets
          .filter((ticket) => ticket.column === lane.name)
          .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : b.number - a.number))
          .map((ticket) => ticket.key);
        expect(lane.cards.map((card) => card.key)).toEqual(expected);
      }
      const cards = new Map(lanes.flatMap((lane) => lane.cards.map((card) => [card.key, card])));
      // Every 25th ticket is an epic whose next 4 are its sub-tickets.
      for (const number of [1, 26, 9976]) {
        const subs = seeded.tickets.filter((ticket) => ticket.number > number && ticket.number <= number + 4);
        expect(cards.get(`BIG-${number}`)!.progress).toEqual({ done: subs.filter((sub) => sub.column === 'Done').length, total: 4 });
        for (const sub of subs) expect(cards.get(sub.key)!.parent).toBe(`BIG-${number}`);
      }
    });

    it("answers each lane's first cards when asked (what a page shows first), with the lanes' whole counts", async () => {
      const whole = (await web('/api/projects/BIG/board')).body as { columns: Array<{ name: string; cards: unknown[] }> };
      const first = await web('/api/projects/BIG/board?cards=40');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        board: { name: 'Main' },
        columns: whole.columns.map((lane) => ({ ...lane, cards: lane.cards.slice(0, 40) })),
        complete: false,
      });
      const all = await web('/api/projects/BIG/board?cards=1000');
      expect(all.body.columns.map((lane: { ticket_count: number; cards: unknown[] }) => [lane.ticket_count, lane.cards.length])).toEqual([
        [4000, 1000],
        [2000, 1000],
        [1000, 1000],
        [1000, 1000],
        [2000, 1000],
      ]);
      expect(all.body.complete).toBe(false);
      // A board whose lanes all fit is complete.
      const small = await web('/api/projects/CARD/board?cards=1000');
      expect([small.status, small.body.complete]).toEqual([200, true]);
      expect(small.body).toEqual((await web('/api/projects/CARD/board')).body);
      for (const bad of ['0', '1001', 'ten', '2.5']) {
        const refused = await web(`/api/projects/BIG/board?cards=${bad}`);
        expect(refused.status).toBe(400);
        expect(refused.body.error.code).toBe('invalid_request');
      }
      expect((await web('/api/projects/BIG/board?cards=1001')).body.error.message).toBe(
        'Invalid arguments for get_board: cards: must be at most 1000 (the maximum)',
      );
    });
  });
});
