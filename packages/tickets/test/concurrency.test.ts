import { describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { boardCaller, useBoard } from './helpers.ts';

describe.each(dialectsUnderTest())('ticket numbering on %s', (dialect) => {
  const board = useBoard(dialect);
  const call = boardCaller(board);

  it('gives 200 tickets created at once 200 distinct consecutive numbers', async () => {
    const created = await Promise.all(Array.from({ length: 200 }, (_, i) => call('create_ticket', { title: `Concurrent ${i}` })));
    const numbers = created.map((ticket) => ticket.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(new Set(created.map((ticket) => ticket.key)).size).toBe(200);
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('list_tickets', { limit: 100, ...(cursor ? { cursor } : {}) });
      listed.push(...page.tickets.map((ticket: { key: string }) => ticket.key));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(listed.sort()).toEqual(created.map((ticket) => ticket.key).sort());
  });
});
