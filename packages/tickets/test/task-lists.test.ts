import { describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { boardCaller, connectMcp, useBoard } from './helpers.ts';

const PLAN = ['## Plan', '', '- [ ] Write docs', '- [x] Ship', '  - [ ] Tell the team', '', '```', '- [ ] in code', '```'].join('\n');

describe.each(dialectsUnderTest())('task lists: one line toggled, concurrent edits merged or refused on %s', (dialect) => {
  const board = useBoard(dialect);
  const call = boardCaller(board);

  /** A raw REST call: the exact status and body. */
  async function rest(method: string, path: string, body: unknown) {
    const response = await fetch(`${board.url}/api/mcp/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${board.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  it('checks the item on its line over REST, with one activity entry', async () => {
    const ticket = await call('create_ticket', { title: 'Release', description: PLAN });
    const answer = await rest('PUT', `/tickets/${ticket.key}`, {
      toggle_task: { line: 3, expected: '- [ ] Write docs', checked: true, seen_updated_at: ticket.updated_at },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.description).toBe(PLAN.replace('- [ ] Write docs', '- [x] Write docs'));
    const read = await call('get_ticket', { ticket_id: ticket.key });
    expect(read.description).toBe(answer.body.description);
    expect(read.activity.map((entry: { action: string; detail: string; actor: string }) => [entry.action, entry.detail, entry.actor])).toEqual([
      ['created', 'created in Backlog', 'token:agent'],
      ['updated', 'changed description (checked "Write docs")', 'token:agent'],
    ]);
    const unchecked = await rest('PUT', `/tickets/${ticket.key}`, { toggle_task: { line: 4, expected: '- [x] Ship', checked: false } });
    expect([unchecked.status, unchecked.body.description]).toEqual([
      200,
      PLAN.replace('- [ ] Write docs', '- [x] Write docs').replace('- [x] Ship', '- [ ] Ship'),
    ]);
  });

  it('merges into a description edited meanwhile: the line moved, both changes kept', async () => {
    const ticket = await call('create_ticket', { title: 'Merge', description: PLAN });
    // Someone else adds lines above and below while the page still shows the old text.
    const edited = `Context first.\n\n${PLAN}\n- [ ] Added later`;
    await call('update_ticket', { ticket_id: ticket.key, description: edited });
    const answer = await rest('PUT', `/tickets/${ticket.key}`, {
      toggle_task: { line: 5, expected: '  - [ ] Tell the team', checked: true, seen_updated_at: ticket.updated_at },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.description).toBe(`Context first.\n\n${PLAN.replace('  - [ ] Tell the team', '  - [x] Tell the team')}\n- [ ] Added later`);
  });

  it('refuses with 409 when the line changed meanwhile, and leaves the text as the other edit made it', async () => {
    const ticket = await call('create_ticket', { title: 'Refuse', description: PLAN });
    const edited = PLAN.replace('- [ ] Write docs', '- [ ] Write the user guide');
    await call('update_ticket', { ticket_id: ticket.key, description: edited });
    const answer = await rest('PUT', `/tickets/${ticket.key}`, {
      toggle_task: { line: 3, expected: '- [ ] Write docs', checked: true, seen_updated_at: ticket.updated_at },
    });
    expect(answer).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message:
            'This item changed since you opened it: "- [ ] Write docs" is no longer in the description (line 3 now reads "- [ ] Write the user guide"). Read the ticket again and toggle the item as it reads now.',
        },
      },
    });
    const read = await call('get_ticket', { ticket_id: ticket.key });
    expect(read.description).toBe(edited);
    expect(read.activity.map((entry: { action: string }) => entry.action)).toEqual(['created', 'updated']);
  });

  it('refuses a line that now appears twice after an edit (which one is unclear)', async () => {
    const ticket = await call('create_ticket', { title: 'Ambiguous', description: PLAN });
    const edited = `${PLAN}\n- [ ] Write docs`;
    await call('update_ticket', { ticket_id: ticket.key, description: edited });
    const answer = await rest('PUT', `/tickets/${ticket.key}`, {
      toggle_task: { line: 3, expected: '- [ ] Write docs', checked: true, seen_updated_at: ticket.updated_at },
    });
    expect(answer.status).toBe(409);
    expect(answer.body.error.message).toBe(
      'This item changed since you opened it: "- [ ] Write docs" is now on lines 3 and 10 of the description, so which one you meant is unclear. Read the ticket again and toggle the item as it reads now.',
    );
    expect((await call('get_ticket', { ticket_id: ticket.key })).description).toBe(edited);
  });

  it('answers bad toggles with 400 and how to fix them', async () => {
    const ticket = await call('create_ticket', { title: 'Bad toggles', description: PLAN });
    const cases: Array<[unknown, string]> = [
      [
        { description: 'x', toggle_task: { line: 3, expected: '- [ ] Write docs', checked: true } },
        'Send either description or toggle_task, not both: toggle_task changes one line of the description.',
      ],
      [
        { toggle_task: { line: 1, expected: '## Plan', checked: true } },
        'toggle_task.expected must be the task list line as you read it, e.g. "- [ ] Write the docs"; got "## Plan".',
      ],
      [{ toggle_task: { line: 4, expected: '- [x] Ship', checked: true } }, 'toggle_task.expected is already checked: send checked: false to uncheck it.'],
      [
        { toggle_task: { line: 3, expected: '- [ ] Write docs', checked: true, seen_updated_at: 'yesterday' } },
        'toggle_task.seen_updated_at must be the updated_at you read (ISO 8601), or left out.',
      ],
      [{ toggle_task: { line: 3, expected: '- [ ] Write docs' } }, 'Invalid arguments for update_ticket: toggle_task.checked is required.'],
      [
        { toggle_task: { line: 0, expected: '- [ ] Write docs', checked: true } },
        'Invalid arguments for update_ticket: toggle_task.line: must be 1 or more (the first line is 1)',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await rest('PUT', `/tickets/${ticket.key}`, body);
      expect([answer.status, answer.body.error.code, answer.body.error.message]).toEqual([400, 'invalid_request', message]);
    }
    expect((await call('get_ticket', { ticket_id: ticket.key })).description).toBe(PLAN);
  });

  it('toggles a document line the same way: applied, merged, refused', async () => {
    const doc = await call('create_document', { title: 'Checklist', content: PLAN });
    const applied = await rest('PUT', `/documents/${doc.slug}`, {
      toggle_task: { line: 3, expected: '- [ ] Write docs', checked: true, seen_updated_at: doc.updated_at },
    });
    expect([applied.status, applied.body.content]).toEqual([200, PLAN.replace('- [ ] Write docs', '- [x] Write docs')]);
    await call('update_document', { doc_id: doc.slug, content: `Intro.\n${applied.body.content}` });
    const merged = await rest('PUT', `/documents/${doc.slug}`, {
      toggle_task: { line: 4, expected: '- [x] Ship', checked: false, seen_updated_at: applied.body.updated_at },
    });
    expect([merged.status, merged.body.content]).toEqual([
      200,
      `Intro.\n${PLAN.replace('- [ ] Write docs', '- [x] Write docs').replace('- [x] Ship', '- [ ] Ship')}`,
    ]);
    const refused = await rest('PUT', `/documents/${doc.slug}`, { toggle_task: { line: 5, expected: '- [x] Ship', checked: false } });
    expect(refused).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message:
            'This item changed since you opened it: "- [x] Ship" is no longer in the document (line 5 now reads "- [ ] Ship"). Read the document again and toggle the item as it reads now.',
        },
      },
    });
    expect((await call('get_document', { doc_id: doc.slug })).content).toBe(merged.body.content);
  });

  it('over MCP: the same rule, a refusal as an isError result with the message', async () => {
    const client = await connectMcp(board.url, board.token);
    const ticket = await call('create_ticket', { title: 'MCP toggle', description: PLAN });
    const applied = await client.callTool({
      name: 'update_ticket',
      arguments: { ticket_id: ticket.key, toggle_task: { line: 3, expected: '- [ ] Write docs', checked: true } },
    });
    expect((applied.structuredContent as { description: string }).description).toBe(PLAN.replace('- [ ] Write docs', '- [x] Write docs'));
    const refused = await client.callTool({
      name: 'update_ticket',
      arguments: { ticket_id: ticket.key, toggle_task: { line: 3, expected: '- [ ] Write docs', checked: true } },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as Array<{ text: string }>)[0]!.text).toContain(
      'This item changed since you opened it: "- [ ] Write docs" is no longer in the description (line 3 now reads "- [x] Write docs").',
    );
    await client.close();
  });
});

describe.each(dialectsUnderTest())('plain text in summaries and search snippets on %s', (dialect) => {
  const board = useBoard(dialect);
  const call = boardCaller(board);
  const DESCRIPTION = [
    '## Webhooks',
    '',
    'Deliveries **retry** with [backoff](https://example.com/backoff).',
    '',
    '| Event | Target |',
    '|---|---|',
    '| paid | `billing` webhook |',
    '',
    '- [ ] Sign the webhook payloads',
    '- [x] Log every delivery',
    '',
    '```',
    'curl -X POST https://example.com/hook',
    '```',
    '![diagram](https://example.com/d.png)',
  ].join('\n');

  it('summarizes extractively without Markdown syntax', async () => {
    const ticket = await call('create_ticket', { title: 'Webhook deliveries', description: DESCRIPTION });
    await board.app.summaryWorker.drain();
    const read = await call('get_ticket', { ticket_id: ticket.key });
    expect([read.ai_summary, read.ai_summary_source]).toEqual([
      'Webhook deliveries. Deliveries retry with backoff. Sign the webhook payloads. Log every delivery.',
      'extractive',
    ]);
  });

  it('answers snippets of plain text with the matches marked, for tickets and documents', async () => {
    await call('create_document', { title: 'Hooks guide', content: DESCRIPTION });
    const results = (await call('search', { query: 'webhook' })).results.map((result: { kind: string; snippet: string }) => [result.kind, result.snippet]);
    const snippet =
      '**Webhooks**. Deliveries retry with backoff. Event · Target. paid · billing **webhook**. Sign the **webhook** payloads. Log every delivery.';
    expect(results).toEqual(
      expect.arrayContaining([
        ['ticket', snippet],
        ['document', snippet],
      ]),
    );
    expect(results).toHaveLength(2);
    // A match only in code shows the code line, without its fence.
    const code = (await call('search', { query: 'curl', scope: 'tickets' })).results.map((result: { snippet: string }) => result.snippet);
    expect(code).toEqual(['…payloads Log every delivery **curl** -X POST https://example.com/hook']);
  });
});
