import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectMcp, mcpCaller, useBoard, type Caller } from './helpers.ts';

/**
 * An AI agent's session through the MCP SDK client, following the spec's
 * conventions from the first call to the README.
 */
describe.each(dialectsUnderTest())('an agent following the conventions over MCP on %s', (dialect) => {
  const board = useBoard(dialect, { key: 'SHOP' });
  let client: Client;
  let call: Caller;
  beforeAll(async () => {
    client = await connectMcp(board.url, board.token);
    call = mcpCaller(client);
  });
  afterAll(() => client.close());

  it('plans, tracks and reports a feature', async () => {
    const epicColumn = async () => (await call('get_ticket', { ticket_id: 'SHOP-1' })).column;
    const comment = (ticket: string, content: string) => call('add_comment', { ticket_id: ticket, content });

    // 1. Status first; column names come from it.
    const status = await call('get_project_status');
    const columns = status.boards[0].columns.map((c: { name: string }) => c.name);
    expect(columns).toEqual(['Backlog', 'To Do', 'In Progress', 'Review', 'Done']);
    const [backlog, todo, inProgress, review, done] = columns;

    // 2. Search first; nothing related, so an epic with three sub-tickets in the right columns.
    expect((await call('search', { query: 'checkout' })).results).toEqual([]);
    expect((await call('list_tickets', { search: 'checkout' })).count).toBe(0);
    const epic = await call('create_ticket', { title: 'Checkout flow', ticket_type: 'epic', priority: 'high', description: 'Cart to payment confirmation.' });
    expect(epic.key).toBe('SHOP-1');
    const cart = await call('create_sub_ticket', { parent_ticket_id: 'SHOP-1', title: 'Cart summary', column_name: todo });
    const payment = await call('create_sub_ticket', { parent_ticket_id: 'shop-1', title: 'Payment form', column_name: backlog });
    const receipt = await call('create_sub_ticket', { parent_ticket_id: 1, title: 'Receipt email', column_name: backlog, priority: 'low' });
    expect([cart.priority, payment.priority, receipt.priority]).toEqual(['high', 'high', 'low']);
    // To Do is a middle column (only Backlog is the first): work is planned, the epic is under way.
    expect(await epicColumn()).toBe(inProgress);

    // 3. Move the sub-tickets through the board; the epic follows; a comment after each step.
    await call('move_ticket', { ticket_id: cart.key, column_name: inProgress });
    await comment(cart.key, 'Started the cart summary.\n\nFiles: `src/cart/summary.tsx`. Functions: `CartSummary`.');
    expect(await epicColumn()).toBe(inProgress);
    for (const [ticket, steps] of [
      [cart.key, [review, done]],
      [payment.key, [inProgress, review, done]],
      [receipt.key, [inProgress, done]],
    ] as const) {
      for (const column of steps) {
        await call('move_ticket', { ticket_id: ticket, column_name: column });
        await comment(ticket, `Moved to ${column}. Files: \`src/checkout.ts\`. Functions: \`checkout()\`.`);
      }
    }
    const finished = await call('get_ticket', { ticket_id: 'SHOP-1' });
    expect(finished.column).toBe(done);
    expect(finished.completed_at).not.toBeNull();
    expect(finished.sub_tickets.map((s: { column: string }) => s.column)).toEqual([done, done, done]);
    expect(finished.activity.filter((a: { action: string }) => a.action === 'auto_moved').map((a: { actor: string }) => a.actor)).toEqual(['system', 'system']);

    // 4. A bug report reopens the completed sub-ticket that implemented the feature.
    const related = await call('search', { query: 'payment', scope: 'tickets' });
    expect(related.results[0]).toMatchObject({ key: payment.key, column: done });
    await call('move_ticket', { ticket_id: payment.key, column_name: inProgress });
    await comment(payment.key, 'Bug: card declined errors are swallowed. Reopened.');
    expect(await epicColumn()).toBe(inProgress);
    await call('update_ticket', { ticket_id: payment.key, description: 'Show card declined errors to the user.' });
    await comment(payment.key, 'Fixed in `src/payment/form.tsx` (`PaymentForm.onError`).');
    await call('move_ticket', { ticket_id: payment.key, column_name: done });
    await comment(payment.key, 'Bug fixed and verified.');
    expect(await epicColumn()).toBe(done);
    const bugFixed = await call('get_ticket', { ticket_id: payment.key });
    expect(bugFixed.comments.length).toBe(6);
    expect(bugFixed.activity.map((a: { action: string }) => a.action)).toEqual([
      'created',
      'moved',
      'commented',
      'moved',
      'commented',
      'moved',
      'commented',
      'moved',
      'commented',
      'updated',
      'commented',
      'moved',
      'commented',
    ]);

    // 5. Import backdated history: a finished epic with a finished sub-ticket; an imported epic completes when its last part did.
    const imported = await call('create_ticket', { title: 'Search page', ticket_type: 'epic', created_at: '2023-01-10T09:00:00Z' });
    await call('create_sub_ticket', { parent_ticket_id: imported.key, title: 'Search box', column_name: done, created_at: '2023-01-11T09:00:00Z' });
    expect(await call('get_ticket', { ticket_id: imported.key })).toMatchObject({ column: done, completed_at: '2023-01-11T09:00:00.000Z' });
    const legacy = await call('create_ticket', { title: 'User accounts', ticket_type: 'epic', column_name: done, created_at: '2023-05-01T09:00:00Z' });
    const signup = await call('create_sub_ticket', {
      parent_ticket_id: legacy.key,
      title: 'Sign-up form',
      column_name: 'done',
      created_at: '2023-05-02T09:00:00Z',
    });
    expect(signup).toMatchObject({ created_at: '2023-05-02T09:00:00.000Z', completed_at: '2023-05-02T09:00:00.000Z', column: done });
    expect(await call('get_ticket', { ticket_id: legacy.key })).toMatchObject({
      column: done,
      created_at: '2023-05-01T09:00:00.000Z',
      completed_at: '2023-05-01T09:00:00.000Z',
    });
    expect((await call('list_tickets', { status: 'completed' })).count).toBe(8);
    expect((await call('list_tickets', { status: 'open' })).count).toBe(0);

    // 6. Write the README; the next session's status shows it.
    const readme = await call('create_document', { title: 'README', doc_type: 'readme', content: '# Shop\n\nCheckout flow: cart, payment, receipt.' });
    expect(readme).toMatchObject({ slug: 'readme', doc_type: 'readme' });
    const hits = await call('search', { query: 'receipt' });
    expect(hits.results.map((r: { kind: string }) => r.kind).sort()).toEqual(['document', 'ticket']);
    const next = await call('get_project_status');
    expect(next.documents[0]).toMatchObject({ slug: 'readme', content: readme.content, content_truncated: false });
    expect(next.stats).toMatchObject({ total: 8, open: 0, completed: 8 });
    expect(next.recent_tickets).toHaveLength(5);
  });
});
