import { describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { boardCaller, connectMcp, mcpCaller, refusal, useBoard, type Caller } from './helpers.ts';

// Issue 16: descriptions, comments and document contents come back exactly as sent, whitespace
// included (a comment's Markdown used to lose its trailing newline); titles stay trimmed.
const TEXTS: Array<[string, string]> = [
  ['a code block ending in a newline', 'Fixed it:\n```ts\nconst x = 1;\n```\n'],
  ['leading and trailing spaces, tabs and blank lines', '\n\n  \tindented first line\n\nlast line  \t\n\n'],
  ['Windows line endings', 'line one\r\nline two\r\n'],
  ['Markdown hard breaks (two trailing spaces)', 'first  \nsecond  \n'],
  ['non-breaking and ideographic spaces at the ends', '\u00a0\u3000text\u2003\u00a0'],
  ['emoji, right-to-left text and combining marks', ' 👩‍👩‍👧‍👦 \u200fשלום e\u0301 '],
];

describe.each(dialectsUnderTest())('ticket text kept exactly as sent on %s', (dialect) => {
  const board = useBoard(dialect);

  const transports: Array<[string, () => Promise<Caller>]> = [
    ['REST', async () => boardCaller(board)],
    ['MCP', async () => mcpCaller(await connectMcp(board.url, board.token))],
  ];

  describe.each(transports)('over %s', (transport, connect) => {
    it.each(TEXTS)('descriptions: %s', async (_label, text) => {
      const call = await connect();
      const created = await call('create_ticket', { title: `  Description ${transport}  `, description: text });
      expect(created.description).toBe(text);
      expect(created.title).toBe(`Description ${transport}`);
      expect((await call('get_ticket', { ticket_id: created.key })).description).toBe(text);
      const sub = await call('create_sub_ticket', { parent_ticket_id: created.key, title: 'Sub', description: text });
      expect((await call('get_ticket', { ticket_id: sub.key })).description).toBe(text);
      const updated = await call('update_ticket', { ticket_id: sub.key, description: `${text}\n` });
      expect(updated.description).toBe(`${text}\n`);
      expect((await call('get_ticket', { ticket_id: sub.key })).description).toBe(`${text}\n`);
    });

    it.each(TEXTS)('comments: %s', async (_label, text) => {
      const call = await connect();
      const ticket = await call('create_ticket', { title: 'Commented' });
      const comment = await call('add_comment', { ticket_id: ticket.key, content: text });
      expect(comment.content).toBe(text);
      const comments = (await call('get_ticket', { ticket_id: ticket.key })).comments;
      expect(comments.map((c: { content: string }) => c.content)).toEqual([text]);
    });

    it.each(TEXTS)('document contents: %s', async (_label, text) => {
      const call = await connect();
      const title = `Doc ${transport} ${text.length} ${Math.random().toString(36).slice(2)}`;
      const created = await call('create_document', { title: `  ${title}  `, content: text });
      expect(created.content).toBe(text);
      expect(created.title).toBe(title);
      expect((await call('get_document', { doc_id: created.slug })).content).toBe(text);
      await call('update_document', { doc_id: created.slug, content: `\n${text}` });
      expect((await call('get_document', { doc_id: created.slug })).content).toBe(`\n${text}`);
    });

    it('a comment of only whitespace is still refused as empty', async () => {
      const call = await connect();
      const ticket = await call('create_ticket', { title: 'Blank comment' });
      const error = await refusal(call('add_comment', { ticket_id: ticket.key, content: ' \n\t ' }));
      expect(error.message).toMatch(/content must not be empty/);
      expect((await call('get_ticket', { ticket_id: ticket.key })).comments).toEqual([]);
    });
  });
});
