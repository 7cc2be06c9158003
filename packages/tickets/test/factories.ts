import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { withTicketsStore } from '../src/index.ts';
import type { TicketsTable } from '../src/store/tables.ts';

/** A seeded ticket as the tests check it: its key, column and the times that order a cut index. */
export interface SeededTicket {
  key: string;
  number: number;
  column: string;
  ticketType: string;
  priority: string;
  updatedAt: string;
  completedAt: string | null;
}

/** A seeded document. */
export interface SeededDocument {
  slug: string;
  title: string;
}

/** What seedBoard made, for the tests' expectations. */
export interface SeededBoard {
  tickets: SeededTicket[];
  documents: SeededDocument[];
}

/** How many of the tickets go into each column, in board order. */
export type ColumnShares = Record<string, number>;

const AREAS = ['checkout', 'login', 'search', 'billing', 'profile', 'admin', 'reports', 'cart', 'export', 'import'];
const BASE = Date.parse('2025-01-01T00:00:00Z');
const minute = (n: number) => new Date(BASE + n * 60_000).toISOString();

/**
 * Seeds an existing project through the store, 500 rows per insert (ten thousand tickets in about a second,
 * not ten thousand HTTP calls): tickets with 45-character titles, a description and a 200-character AI summary,
 * spread over the columns as `shares` says, their updated_at (and completed_at in the done column) shuffled
 * against their numbers; every 25th an epic whose next 4 tickets are its sub-tickets. Then `documents` pages
 * (a README first, every 10th page longer than the 3000 characters get_all_tickets shows).
 */
export async function seedBoard(env: Record<string, string>, projectKey: string, shares: ColumnShares, documents: number): Promise<SeededBoard> {
  return withTicketsStore(env, async (db) => {
    const project = await db.selectFrom('projects').select(['id']).where('key', '=', projectKey).executeTakeFirstOrThrow();
    const columns = await db.selectFrom('board_columns').select(['id', 'name', 'is_done']).where('project_id', '=', project.id).orderBy('position').execute();
    const columnOf = Object.entries(shares).flatMap(([name, count]) => Array.from({ length: count }, () => columns.find((column) => column.name === name)!));
    const total = columnOf.length;
    const ids = Array.from({ length: total + 1 }, () => randomUUID());
    const seeded: SeededTicket[] = [];
    const rows: Array<Insertable<TicketsTable>> = [];
    for (let n = 1; n <= total; n++) {
      // Spread the columns over the numbers (n-th ticket takes the (n*7919 mod total)-th share), and the update times over both.
      const column = columnOf[(n * 7919) % total];
      const updated = minute((n * 104_729) % total);
      const completed = column.is_done === 1 ? minute(total + ((n * 15_485_863) % total)) : null;
      const epic = n % 25 === 1;
      const parent = n % 25 >= 2 && n % 25 <= 5 ? ids[n - (n % 25) + 1] : null;
      const area = AREAS[n % AREAS.length];
      const title = `Ticket ${String(n).padStart(5, '0')}: ${area} work on the board page`.padEnd(45, '.');
      const ticketType = epic ? 'epic' : ['task', 'bug', 'story'][n % 3];
      const priority = ['low', 'medium', 'high'][n % 3];
      rows.push({
        id: ids[n],
        project_id: project.id,
        number: n,
        title,
        description: `The ${area} page needs work. Acceptance: the ${area} flow passes its tests and the docs say how it behaves.`,
        priority,
        ticket_type: ticketType,
        column_id: column.id,
        parent_id: parent,
        assignee: null,
        created_at: minute(0),
        updated_at: updated,
        completed_at: completed,
        ai_summary: `${title} ${'The summary of what this ticket asks for and where it stands. '.repeat(4)}`.slice(0, 200),
        ai_summary_source: 'extractive',
        summary_version: 1,
        summarized_version: 1,
        summary_claimed_until: null,
      });
      seeded.push({ key: `${projectKey}-${n}`, number: n, column: column.name, ticketType, priority, updatedAt: updated, completedAt: completed });
    }
    const pages: SeededDocument[] = [];
    const documentRows = Array.from({ length: documents }, (_, i) => {
      const readme = i === 0;
      const slug = readme ? 'readme' : `guide-${String(i).padStart(3, '0')}`;
      const title = readme ? 'README' : `Guide page ${i}`;
      pages.push({ slug, title });
      const content = `How part ${i} of the project works. `.repeat(i % 10 === 0 ? 150 : 12);
      return { id: randomUUID(), project_id: project.id, slug, title, content, doc_type: readme ? 'readme' : 'wiki', created_at: minute(i), updated_at: minute(i) };
    });
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += 500) await trx.insertInto('tickets').values(rows.slice(start, start + 500)).execute();
      for (let start = 0; start < documentRows.length; start += 100) await trx.insertInto('documents').values(documentRows.slice(start, start + 100)).execute();
      await trx.updateTable('projects').set({ ticket_counter: total }).where('id', '=', project.id).execute();
    });
    return { tickets: seeded, documents: pages };
  });
}
