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
    expect((await call('list_tickets', { limit: 500 })).count).toBe(200);
  });
});
