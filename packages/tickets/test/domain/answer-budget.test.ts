import { describe, expect, it } from 'vitest';
import { ANSWER_BUDGET, AnswerRoom, answerCost, entryCost, fillInTurns, replacingNullCost } from '../../src/domain/answer-budget.ts';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor.ts';
import {
  DESCRIPTION_ROOM,
  MOST_INDEX_ENTRIES,
  candidatesPerColumn,
  chooseDocuments,
  clipDescription,
  cutIndexes,
  keepOrder,
  type IndexedTicket,
} from '../../src/domain/status-rules.ts';

/** The JSON-RPC response a tool result travels in (the shape the MCP server writes), and its text. */
function mcpResponse(answer: unknown): { text: string; response: string } {
  const text = JSON.stringify(answer);
  return { text, response: JSON.stringify({ result: { content: [{ type: 'text', text }], structuredContent: answer }, jsonrpc: '2.0', id: 1 }) };
}

const ENVELOPE = mcpResponse({}).response.length - 2 * '{}'.length;

describe('answer costs', () => {
  it('count exactly what an answer adds to its text and to the whole MCP response, escapes included', () => {
    const answer = { items: [] as unknown[], next_cursor: null as string | null };
    const skeleton = answerCost(answer);
    let predicted = { ...skeleton };
    const entries = [{ title: 'plain' }, { title: 'quotes " and \\ backslashes' }, { title: 'new\nline, tab\t, \u0001 and 😀' }, { n: 1 }];
    for (const entry of entries) {
      const cost = entryCost(entry);
      predicted = { text: predicted.text + cost.text, response: predicted.response + cost.response };
      answer.items.push(entry);
    }
    const cursor = 'WyJsdCIsIjIwMjYiLDEyXQ';
    const trailing = replacingNullCost(cursor);
    answer.next_cursor = cursor;
    const actual = mcpResponse(answer);
    // The first entry of a list has no comma before it: the costs count one character too many there (text and the two copies).
    expect(predicted.text + trailing.text - 1).toBe(actual.text.length);
    expect(predicted.response + trailing.response - 2 + ENVELOPE).toBe(actual.response.length);
  });

  it('takes entries while they fit, so an answer built in the room stays within the budget', () => {
    const answer = { tickets: [] as object[] };
    const room = new AnswerRoom(answerCost(answer));
    for (let n = 1; ; n++) {
      const entry = { key: `DEMO-${n}`, title: `"Quoted" title number ${n} ${'x'.repeat(n % 50)}` };
      if (!room.take(entryCost(entry))) break;
      answer.tickets.push(entry);
    }
    const { text, response } = mcpResponse(answer);
    expect(text.length).toBeLessThanOrEqual(ANSWER_BUDGET.text);
    expect(response.length).toBeLessThanOrEqual(ANSWER_BUDGET.response + ENVELOPE);
    // Nearly full: the next entry would not have fitted.
    expect(room.left().text).toBeLessThan(200);
    expect(ANSWER_BUDGET.text).toBeLessThan(40_000);
    expect(ANSWER_BUDGET.response + ENVELOPE).toBeLessThan(90_000);
  });

  it('fills lists in turns until the first entry that does not fit', () => {
    const entry = { k: 'x'.repeat(91) };
    const each = entryCost(entry);
    const room = new AnswerRoom({ text: 0, response: 0 }, { text: each.text * 7, response: each.response * 7 });
    expect(fillInTurns([[entry, entry, entry, entry], [entry], [entry, entry, entry, entry, entry]], room)).toEqual([3, 1, 3]);
    expect(fillInTurns([[entry], []], new AnswerRoom({ text: 0, response: 0 }, ANSWER_BUDGET))).toEqual([1, 0]);
  });
});

describe('cursors', () => {
  it("round-trip each tool's position as an opaque string", () => {
    const positions = [
      { tool: 'list_tickets', updatedAt: '2026-01-01T00:00:00.000Z', number: 12 },
      { tool: 'get_all_tickets', phase: 'tickets', number: 250 },
      { tool: 'get_all_tickets', phase: 'documents' },
      { tool: 'get_all_tickets', phase: 'documents', after: { title: 'Ünïcode "title"', slug: 'unicode-title' } },
      { tool: 'list_documents', after: { title: 'README', slug: 'readme' } },
      { tool: 'list_members', after: 'ann@example.com' },
    ] as const;
    for (const position of positions) {
      const cursor = encodeCursor(position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(position.tool, cursor)).toEqual(position);
    }
  });

  it('refuses anything but a cursor of the same tool, saying how to page', () => {
    const other = encodeCursor({ tool: 'list_documents', after: { title: 'A', slug: 'a' } });
    for (const raw of [other, 'garbage', Buffer.from('["lt","x"]').toString('base64url'), Buffer.from('["lt","x",-1]').toString('base64url')]) {
      expect(() => decodeCursor('list_tickets', raw)).toThrow(
        `cursor "${raw}" is not a cursor of list_tickets. Pass the next_cursor of the previous list_tickets answer unchanged, or leave cursor out to start from the first page.`,
      );
    }
  });
});

describe('get_project_status cuts', () => {
  const ticket = (number: number, updatedAt: string, completedAt: string | null = null): IndexedTicket<{ key: string }> => ({
    entry: { key: `D-${number}` },
    number,
    updatedAt,
    completedAt,
  });

  it("keeps an open column's most recently updated tickets and a done column's most recently completed, listed by number", () => {
    const open = [ticket(1, '2026-01-05'), ticket(2, '2026-01-09'), ticket(3, '2026-01-01'), ticket(4, '2026-01-09')];
    const done = [ticket(5, '2026-01-09', '2026-01-02'), ticket(6, '2026-01-01', '2026-01-08'), ticket(7, '2026-01-03', '2026-01-05')];
    expect([...open].sort(keepOrder(false)).map((t) => t.number)).toEqual([4, 2, 1, 3]);
    expect([...done].sort(keepOrder(true)).map((t) => t.number)).toEqual([6, 7, 5]);
    const each = entryCost({ key: 'D-1' });
    const room = new AnswerRoom({ text: 0, response: 0 }, { text: each.text * 4, response: each.response * 4 });
    expect(
      cutIndexes(
        [
          { isDone: false, tickets: open, total: 4 },
          { isDone: true, tickets: done, total: 3 },
        ],
        room,
      ),
    ).toEqual([
      { entries: [{ key: 'D-2' }, { key: 'D-4' }], truncated: true },
      { entries: [{ key: 'D-6' }, { key: 'D-7' }], truncated: true },
    ]);
    // A column read only in part (its best candidates) is cut even when all the candidates fit.
    expect(cutIndexes([{ isDone: false, tickets: open.slice(0, 1), total: 9 }], new AnswerRoom({ text: 0, response: 0 }))).toEqual([
      { entries: [{ key: 'D-1' }], truncated: true },
    ]);
  });

  it('reads no more candidates per column than taking turns could keep', () => {
    expect(candidatesPerColumn([2000, 2000, 2000, 2000, 2000], 600)).toEqual([121, 121, 121, 121, 121]);
    expect(candidatesPerColumn([3, 5000, 0], 600)).toEqual([3, 598, 0]);
    expect(candidatesPerColumn([3, 4], 600)).toEqual([3, 4]);
    expect(MOST_INDEX_ENTRIES).toBeGreaterThan(500);
  });

  it('lists documents whole, else compact, else the README and the most recently updated', () => {
    const documents = Array.from({ length: 5 }, (_, i) => ({
      full: { id: `id-${i}`, slug: `s${i}`, title: `T${i}`, doc_type: 'wiki', created_at: '2026-01-01', updated_at: `2026-01-0${i + 1}` },
      compact: { slug: `s${i}`, title: `T${i}`, doc_type: 'wiki' },
      isReadme: i === 0,
      updatedAt: `2026-01-0${i + 1}`,
    }));
    const sum = (entries: unknown[]) =>
      entries.reduce(
        (total: { text: number; response: number }, entry) => {
          const cost = entryCost(entry);
          return { text: total.text + cost.text, response: total.response + cost.response };
        },
        { text: 0, response: 0 },
      );
    expect(chooseDocuments(documents, sum(documents.map((doc) => doc.full)))).toEqual({
      entries: documents.map((doc) => doc.full),
      form: 'full',
      truncated: false,
    });
    expect(chooseDocuments(documents, sum(documents.map((doc) => doc.compact)))).toEqual({
      entries: documents.map((doc) => doc.compact),
      form: 'compact',
      truncated: false,
    });
    const three = sum(documents.slice(0, 3).map((doc) => doc.compact));
    expect(chooseDocuments(documents, three)).toEqual({ entries: [0, 3, 4].map((i) => documents[i].compact), form: 'compact', truncated: true });
  });

  it('shortens a description to its first 3000 characters, fewer when escapes make those cost more', () => {
    expect(clipDescription('Short and plain.')).toEqual({ text: 'Short and plain.', truncated: false });
    expect(clipDescription('x'.repeat(3000))).toEqual({ text: 'x'.repeat(3000), truncated: false });
    expect(clipDescription('x'.repeat(10_000))).toEqual({ text: 'x'.repeat(3000), truncated: true });
    const fits = (text: string) => new AnswerRoom({ text: 0, response: 0 }, DESCRIPTION_ROOM).fits(answerCost(text));
    // A double quote costs 2 characters of text and 6 of response, a control character 6 and 13: the longest prefix that fits.
    for (const character of ['"', '\n', '\u0001', '😀']) {
      const { text, truncated } = clipDescription(character.repeat(5000));
      expect([truncated, fits(text), fits(text + character)], JSON.stringify(character)).toEqual([true, true, false]);
    }
    expect(clipDescription('\u0001'.repeat(5000)).text).toHaveLength(461);
  });
});
