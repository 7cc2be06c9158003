// TEMPORARY: answers GET /api/projects/{KEY}/board in the browser from the database until the service's route lands.
import type { Page } from 'playwright-core';
import type { UiHarness } from './ui-harness.ts';

export async function stubBoardRoute(page: Page, h: UiHarness): Promise<void> {
  await page.route('**/api/projects/*/board*', async (route) => {
    const url = new URL(route.request().url());
    const key = url.pathname.split('/')[3]!;
    const db = (h.board.app as any).ticketsDb.db;
    const project = await db.selectFrom('projects').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    const boards = await db.selectFrom('boards').selectAll().where('project_id', '=', project.id).orderBy('position').execute();
    const board = boards.find((b: any) => b.name === url.searchParams.get('board')) ?? boards[0];
    const columns = await db.selectFrom('board_columns').selectAll().where('board_id', '=', board.id).orderBy('position').execute();
    const tickets = await db.selectFrom('tickets').selectAll().where('project_id', '=', project.id).orderBy('updated_at', 'desc').execute();
    const labels = await db.selectFrom('ticket_labels').innerJoin('labels', 'labels.id', 'ticket_labels.label_id').select(['ticket_labels.ticket_id', 'labels.id', 'labels.name', 'labels.color']).where('labels.project_id', '=', project.id).execute();
    const byId = new Map(tickets.map((t: any) => [t.id, t]));
    const doneIds = new Set(columns.filter((c: any) => c.is_done).map((c: any) => c.id));
    const body = {
      board: { name: board.name },
      columns: columns.map((c: any) => {
        const cards = tickets.filter((t: any) => t.column_id === c.id).map((t: any) => {
          const subs = tickets.filter((s: any) => s.parent_id === t.id);
          return {
            key: `${key}-${t.number}`,
            title: t.title,
            ticket_type: t.ticket_type,
            priority: t.priority,
            labels: labels.filter((l: any) => l.ticket_id === t.id).map((l: any) => ({ id: l.id, name: l.name, color: l.color })),
            assignee: t.assignee ? JSON.parse(t.assignee) : null,
            parent: t.parent_id ? `${key}-${(byId.get(t.parent_id) as any).number}` : null,
            progress: t.ticket_type === 'epic' ? { done: subs.filter((s: any) => doneIds.has(s.column_id)).length, total: subs.length } : null,
            updated_at: t.updated_at,
            completed_at: t.completed_at,
          };
        });
        return { name: c.name, is_done_column: c.is_done === 1, ticket_count: cards.length, cards };
      }),
    };
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  });
}
