import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { connectMcp, mcpCaller, restCaller, useBoard, type Caller } from './helpers.ts';

const HINT = 'Name a ticket of the target column (list_tickets with column_name and order "board"), or use "top" or "bottom".';

describe.each(dialectsUnderTest())('order within a lane (move_ticket position, list_tickets order "board") on %s', (dialect) => {
  const board = useBoard(dialect, { key: 'LANE' });
  const clients: Client[] = [];
  let rest: Caller;
  let otherKey: string;
  afterAll(async () => {
    for (const client of clients) await client.close();
  });
  beforeAll(async () => {
    rest = restCaller(board.url, board.token);
    await board.addProject('OTHER');
    otherKey = 'OTHER';
  });

  /** POST …/tickets/{KEY}/move over REST: the status and the parsed body. */
  const restMove = async (key: string, body: Record<string, unknown>) => {
    const response = await fetch(`${board.url}/api/mcp/v1/tickets/${key}/move`, {
      method: 'POST',
      headers: { authorization: `Bearer ${board.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  /** The keys of a column, top first, as list_tickets with order "board" answers them. */
  const laneKeys = async (column: string) =>
    ((await rest('list_tickets', { column_name: column, order: 'board' })).tickets as Array<{ key: string }>).map((ticket) => ticket.key);

  /** A lane of the board as the web UI reads it (GET /api/projects/{KEY}/board, which a project token may call too). */
  const boardLane = async (column: string) => {
    const response = await fetch(`${board.url}/api/projects/LANE/board`, { headers: { authorization: `Bearer ${board.token}` } });
    expect(response.status).toBe(200);
    return ((await response.json()).columns as Array<{ name: string; cards: unknown[] }>).find((lane) => lane.name === column)!;
  };

  /** Everything that tells whether a refused move changed anything: each lane's order and the moved ticket's activity. */
  const snapshot = async (key: string) => ({
    lanes: (await rest('list_tickets', { order: 'board', limit: 100 })).tickets.map((t: { key: string; column: string }) => `${t.column}:${t.key}`),
    activity: (await rest('get_ticket', { ticket_id: key })).activity.length,
  });

  describe.each(['rest', 'mcp'] as const)('over %s', (transport) => {
    let call: Caller;
    let column: string;
    let keys: string[];
    beforeAll(async () => {
      if (transport === 'rest') call = rest;
      else {
        const client = await connectMcp(board.url, board.token);
        clients.push(client);
        call = mcpCaller(client);
      }
      // A column of this transport's own, five tickets: each new one goes to the top, so the lane reads 5 4 3 2 1.
      column = transport === 'rest' ? 'To Do' : 'Review';
      keys = [];
      for (let i = 1; i <= 5; i++) keys.push((await call('create_ticket', { title: `${transport} ${i}`, column_name: column })).key);
    });
    const k = (n: number) => keys[n - 1]!;

    it('puts new tickets at the top of their lane', async () => {
      expect(await laneKeys(column)).toEqual([k(5), k(4), k(3), k(2), k(1)]);
    });

    it('reorders within the column with each position form, recording each as a move', async () => {
      const moved = await call('move_ticket', { ticket_id: k(5), column_name: column, position: 'bottom' });
      expect(moved).toMatchObject({ key: k(5), column });
      expect(await laneKeys(column)).toEqual([k(4), k(3), k(2), k(1), k(5)]);
      await call('move_ticket', { ticket_id: k(1), column_name: column, position: 'top' });
      expect(await laneKeys(column)).toEqual([k(1), k(4), k(3), k(2), k(5)]);
      await call('move_ticket', { ticket_id: k(2), column_name: column, position: { before: k(4) } });
      expect(await laneKeys(column)).toEqual([k(1), k(2), k(4), k(3), k(5)]);
      // The anchor by number and in lower case, as every ticket id.
      const anchorNumber = Number(k(5).split('-')[1]);
      await call('move_ticket', { ticket_id: k(4).toLowerCase(), column_name: column, position: { after: anchorNumber } });
      expect(await laneKeys(column)).toEqual([k(1), k(2), k(3), k(5), k(4)]);
      const activity = (await call('get_ticket', { ticket_id: k(4) })).activity.map((a: { action: string; detail: string }) => [a.action, a.detail]);
      expect(activity).toEqual([
        ['created', `created in ${column}`],
        ['moved', `moved below ${k(5)} in ${column}`],
      ]);
      // The board's cards carry the ranks (the Ticket JSON does not): rising down the lane, in list_tickets' order.
      const cards = (await boardLane(column)).cards as Array<{ key: string; rank: number }>;
      expect(cards.map((card) => card.key)).toEqual(await laneKeys(column));
      const ranks = cards.map((card) => card.rank);
      expect(new Set(ranks).size).toBe(5);
      expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
      expect((await call('get_ticket', { ticket_id: k(4) })).rank).toBeUndefined();
    });

    it('changes nothing when the ticket is already at that place, or when no position is given for its own column', async () => {
      const before = await snapshot(k(1));
      const same = await call('move_ticket', { ticket_id: k(1), column_name: column, position: 'top' });
      expect(same.updated_at).toBe((await call('get_ticket', { ticket_id: k(1) })).updated_at);
      await call('move_ticket', { ticket_id: k(1), column_name: column, position: { before: k(2) } });
      await call('move_ticket', { ticket_id: k(1), column_name: column });
      expect(await snapshot(k(1))).toEqual(before);
    });

    it('moves to another column at its top without a position, and at a precise place with one', async () => {
      const target = transport === 'rest' ? 'In Progress' : 'Backlog';
      await call('move_ticket', { ticket_id: k(1), column_name: target });
      await call('move_ticket', { ticket_id: k(2), column_name: target });
      expect(await laneKeys(target)).toEqual([k(2), k(1)]);
      const moved = await call('move_ticket', { ticket_id: k(3), column_name: target, position: { after: k(2) } });
      expect(moved.column).toBe(target);
      expect(await laneKeys(target)).toEqual([k(2), k(3), k(1)]);
      await call('move_ticket', { ticket_id: k(5), column_name: target, position: 'bottom' });
      expect(await laneKeys(target)).toEqual([k(2), k(3), k(1), k(5)]);
      expect(await laneKeys(column)).toEqual([k(4)]);
      const last = (await call('get_ticket', { ticket_id: k(3) })).activity.at(-1);
      expect([last.action, last.detail]).toEqual(['moved', `moved from ${column} to ${target} (below ${k(2)} in ${target})`]);
      // Back, so the refusals below have a lane of several tickets.
      for (const n of [1, 2, 3, 5]) await call('move_ticket', { ticket_id: k(n), column_name: column, position: 'bottom' });
      expect(await laneKeys(column)).toEqual([k(4), k(1), k(2), k(3), k(5)]);
    });

    it('keeps the order through many moves to one spot (the lane renumbered when its ranks run out)', async () => {
      // Always between the first ticket and the one put there last: the gap halves each time.
      for (const n of [5, 3, 2, 1, 5, 3, 2, 1, 5, 3, 2, 1, 5, 3, 2, 1, 5, 3, 2, 1]) {
        await call('move_ticket', { ticket_id: k(n), column_name: column, position: { after: k(4) } });
      }
      expect(await laneKeys(column)).toEqual([k(4), k(1), k(2), k(3), k(5)]);
    });
  });

  it('refuses a position naming a ticket of another lane, of another project, an unknown one or the moved one: 422 naming position, nothing changed', async () => {
    const a = (await rest('create_ticket', { title: 'Refusal A', column_name: 'Done' })).key;
    const b = (await rest('create_ticket', { title: 'Refusal B', column_name: 'Done' })).key;
    const elsewhere = (await rest('list_tickets', { column_name: 'To Do', order: 'board', limit: 1 })).tickets[0].key;
    const foreign = `${otherKey}-1`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { column_name: 'Done', position: { before: elsewhere } },
        `position names ${elsewhere}, which is in To Do, not in Done (the column the ticket goes to). ${HINT}`,
      ],
      [{ column_name: 'Backlog', position: { after: b } }, `position names ${b}, which is in Done, not in Backlog (the column the ticket goes to). ${HINT}`],
      [{ column_name: 'Done', position: { after: foreign } }, `position names ${foreign}, a ticket of another project (this one is LANE). ${HINT}`],
      [{ column_name: 'Done', position: { before: 'LANE-999' } }, `position names LANE-999, which is not a ticket of this project. ${HINT}`],
      [{ column_name: 'Done', position: { before: 'not a key' } }, `position names not a key, which is not a ticket of this project. ${HINT}`],
      [
        { column_name: 'Done', position: { before: a } },
        `position names ${a}, the ticket being moved. Name another ticket of the column, or use "top" or "bottom".`,
      ],
    ];
    const client = await connectMcp(board.url, board.token);
    clients.push(client);
    for (const [args, message] of cases) {
      const before = await snapshot(a);
      expect(await restMove(a, args)).toEqual({ status: 422, body: { error: { code: 'validation_failed', message, details: { field: 'position' } } } });
      const result = (await client.callTool({ name: 'move_ticket', arguments: { ticket_id: a, ...args } })) as CallToolResult;
      expect(result).toEqual({
        isError: true,
        content: [{ type: 'text', text: message }],
        _meta: { 'dev.switchboard/error': { code: 'validation_failed', message, details: { field: 'position' } } },
      });
      expect(await snapshot(a)).toEqual(before);
    }
  });

  it('refuses a position of the wrong shape as an invalid argument (400), saying the forms it takes', async () => {
    const key = (await rest('create_ticket', { title: 'Shape' })).key;
    const message = 'Invalid arguments for move_ticket: position: must be "top", "bottom", {"before": KEY} or {"after": KEY}';
    for (const position of ['middle', { before: 'LANE-1', after: 'LANE-2' }, { beside: 'LANE-1' }, 3]) {
      expect(await restMove(key, { column_name: 'Backlog', position })).toEqual({
        status: 400,
        body: {
          error: { code: 'invalid_request', message, details: { issues: [{ path: 'position', message: `position: ${message.split('position: ')[1]}` }] } },
        },
      });
    }
  });

  it('lists tickets in board order (lane by lane, each by rank) and pages through them with the cursor', async () => {
    const whole = (await rest('list_tickets', { order: 'board', limit: 100 })).tickets as Array<{ key: string; column: string }>;
    const columns = ['Backlog', 'To Do', 'In Progress', 'Review', 'Done'];
    const byColumn = whole.map((ticket) => columns.indexOf(ticket.column));
    expect([...byColumn].sort((x, y) => x - y)).toEqual(byColumn);
    for (const column of columns) expect(whole.filter((ticket) => ticket.column === column).map((ticket) => ticket.key)).toEqual(await laneKeys(column));
    // The default order stays most recently updated first.
    const recent = (await rest('list_tickets', { limit: 100 })).tickets as Array<{ updated_at: string }>;
    expect(recent.map((t) => t.updated_at)).toEqual([...recent.map((t) => t.updated_at)].sort().reverse());
    // Pages of 3 cross lanes and add up to the whole list.
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await rest('list_tickets', { order: 'board', limit: 3, ...(cursor ? { cursor } : {}) });
      paged.push(...page.tickets.map((ticket: { key: string }) => ticket.key));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(whole.map((ticket) => ticket.key));
    // A cursor of the other order is refused as any foreign cursor.
    const updatedCursor = (await rest('list_tickets', { limit: 1 })).next_cursor as string;
    const refused = await fetch(`${board.url}/api/mcp/v1/tickets?order=board&cursor=${updatedCursor}`, { headers: { authorization: `Bearer ${board.token}` } });
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 400,
      body: {
        error: {
          code: 'invalid_request',
          message: `cursor "${updatedCursor}" is not a cursor of list_tickets. Pass the next_cursor of the previous list_tickets answer unchanged, or leave cursor out to start from the first page.`,
          details: { field: 'cursor' },
        },
      },
    });
    const badOrder = await fetch(`${board.url}/api/mcp/v1/tickets?order=rank`, { headers: { authorization: `Bearer ${board.token}` } });
    expect(await badOrder.json()).toEqual({
      error: {
        code: 'invalid_request',
        message: 'Invalid arguments for list_tickets: Unknown order "rank". Valid values: updated, board.',
        details: { issues: [{ path: 'order', message: 'Unknown order "rank". Valid values: updated, board.' }] },
      },
    });
  });
});
