import { randomUUID } from 'node:crypto';
import { createLabel, createProject, createToken, withTicketsStore } from '../packages/tickets/src/index.ts';

const VERBS = ['Fix', 'Add', 'Refactor', 'Document', 'Speed up', 'Test', 'Remove'];
const AREAS = ['checkout', 'login', 'search', 'billing', 'profile', 'admin', 'reports', 'cart', 'export', 'import', 'settings', 'mobile', 'API'];
const THINGS = ['validation', 'error message', 'cache', 'pagination', 'layout', 'permissions', 'retry logic', 'timeouts', 'logging', 'form', 'webhook'];
const TYPES = ['task', 'bug', 'story'];
const PRIORITIES = ['lowest', 'low', 'medium', 'high', 'highest'];

/** The words the seeded titles and descriptions are made of (a search for one of them has many hits). */
export const SEED_AREAS = AREAS;

/** What seedProject makes. */
export interface SeedOptions {
  key: string;
  tickets: number;
  /** Project Auto-Summary (off: get_project_status shows no README content). */
  autoSummary: boolean;
  /**
   * A project as agents fill it: titles of about 45 characters and an AI summary on every ticket (what
   * Auto-Summary writes). Off: short titles and no summaries, the ticket-read scenarios' data since the start.
   */
  realistic: boolean;
  /** A ticket given 3 comments, 3 more activity entries and a second label. */
  target?: number;
}

function titleOf(n: number, epic: boolean, realistic: boolean): string {
  const title = `${VERBS[n % VERBS.length]} ${AREAS[n % AREAS.length]} ${THINGS[n % THINGS.length]}`;
  return `${title}${realistic ? ` on the ${AREAS[(n + 7) % AREAS.length]} screen` : ''}${epic ? ' (epic)' : ''}`;
}

/**
 * Seeds a project through the store (one transaction, 500 rows per insert): every 20th ticket an epic
 * with 4 sub-tickets, tickets spread over the columns, one 'created' activity each, labels on every
 * third, and 4 documents (a 4,600-character README and 3 wiki pages). Returns a token of the project.
 */
export async function seedProject(env: Record<string, string>, options: SeedOptions): Promise<string> {
  const { key, tickets: count, realistic, target } = options;
  return withTicketsStore(env, async (db) => {
    const { project_id: projectId } = await createProject(db, {
      key,
      name: 'Benchmark',
      description: 'Seeded by npm run bench',
      autoSummary: options.autoSummary,
    });
    const labels = [await createLabel(db, key, 'backend', '#2563eb'), await createLabel(db, key, 'urgent', '#dc2626')];
    const columns = await db.selectFrom('board_columns').select(['id', 'is_done']).where('project_id', '=', projectId).orderBy('position').execute();
    const base = Date.parse('2026-01-01T00:00:00Z');
    const at = (n: number) => new Date(base + n * 60_000).toISOString();
    const ids = Array.from({ length: count + 1 }, () => randomUUID());
    await db.transaction().execute(async (trx) => {
      for (let start = 1; start <= count; start += 500) {
        const tickets = [];
        const activity = [];
        const ticketLabels = [];
        for (let n = start; n < Math.min(start + 500, count + 1); n++) {
          const slot = n % 20;
          const epic = slot === 1;
          const parent = slot >= 2 && slot <= 5 ? ids[n - slot + 1] : null;
          const column = columns[n % columns.length];
          const title = titleOf(n, epic, realistic);
          const description = `The ${AREAS[(n + 3) % AREAS.length]} page shows the wrong ${THINGS[(n + 5) % THINGS.length]} after a refresh. Steps: open it, change a value, reload. Expected: the new value. Seen in release ${n % 40}.`;
          tickets.push({
            id: ids[n],
            project_id: projectId,
            number: n,
            title,
            description,
            priority: PRIORITIES[n % PRIORITIES.length],
            ticket_type: epic ? 'epic' : TYPES[n % TYPES.length],
            column_id: column.id,
            // Newest first in each lane, as a board of created tickets reads (each new one goes to the top).
            rank: -n * 65_536,
            parent_id: parent,
            assignee: null,
            created_at: at(n),
            updated_at: at(n),
            completed_at: column.is_done === 1 ? at(n) : null,
            ai_summary: realistic ? `${title}. ${description}`.slice(0, 200) : null,
            ai_summary_source: realistic ? 'extractive' : null,
            summary_version: 1,
            summarized_version: 1,
            summary_claimed_until: null,
          });
          activity.push({
            ticket_id: ids[n],
            project_id: projectId,
            action: 'created',
            detail: `Created in column ${n % columns.length}`,
            actor: 'token:import',
            created_at: at(n),
          });
          if (n % 3 === 0) ticketLabels.push({ ticket_id: ids[n], label_id: labels[0].id });
        }
        await trx.insertInto('tickets').values(tickets).execute();
        await trx.insertInto('activity').values(activity).execute();
        if (ticketLabels.length) await trx.insertInto('ticket_labels').values(ticketLabels).execute();
      }
      if (target !== undefined) {
        const id = ids[target];
        await trx.insertInto('ticket_labels').values({ ticket_id: id, label_id: labels[1].id }).execute();
        for (let i = 1; i <= 3; i++) {
          const created_at = at(target + i);
          await trx
            .insertInto('comments')
            .values({
              id: randomUUID(),
              ticket_id: id,
              project_id: projectId,
              content: `Progress note ${i}: looked into the cause, details in the PR.`,
              author: 'token:agent',
              created_at,
            })
            .execute();
          await trx
            .insertInto('activity')
            .values({ ticket_id: id, project_id: projectId, action: 'commented', detail: `Comment ${i}`, actor: 'token:agent', created_at })
            .execute();
        }
      }
      const docs = [
        { slug: 'readme', title: 'README', doc_type: 'readme', content: 'The benchmark project. '.repeat(200) },
        ...['architecture', 'checkout-flow', 'release-process'].map((slug) => ({
          slug,
          title: slug.replace('-', ' '),
          doc_type: 'wiki',
          content: `How the ${slug} works. `.repeat(50),
        })),
      ];
      await trx
        .insertInto('documents')
        .values(docs.map((doc) => ({ id: randomUUID(), project_id: projectId, ...doc, created_at: at(0), updated_at: at(0) })))
        .execute();
      await trx.updateTable('projects').set({ ticket_counter: count }).where('id', '=', projectId).execute();
    });
    return (await createToken(db, key, 'bench')).token;
  });
}
