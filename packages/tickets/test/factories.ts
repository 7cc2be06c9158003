import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { openPlatformDatabase } from '@switchboard/core';
import { withTicketsStore } from '../src/index.ts';
import {
  BOARDS_MAX,
  LABEL_NAME_MAX,
  LABELS_MAX,
  NAME_MAX,
  PROJECT_COLUMNS_MAX,
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
} from '../src/domain/settings-rules.ts';
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
        // Each lane in the order the board showed before lanes had ranks (most recently updated first), as the upgrade ranks them.
        rank: total - ((n * 104_729) % total),
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
      return {
        id: randomUUID(),
        project_id: project.id,
        slug,
        title,
        content,
        doc_type: readme ? 'readme' : 'wiki',
        created_at: minute(i),
        updated_at: minute(i),
      };
    });
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += 500)
        await trx
          .insertInto('tickets')
          .values(rows.slice(start, start + 500))
          .execute();
      for (let start = 0; start < documentRows.length; start += 100)
        await trx
          .insertInto('documents')
          .values(documentRows.slice(start, start + 100))
          .execute();
      await trx.updateTable('projects').set({ ticket_counter: total }).where('id', '=', project.id).execute();
    });
    return { tickets: seeded, documents: pages };
  });
}

/** What seedLargestSettings made: every board with its column names, in order, and the label names. */
export interface LargestSettings {
  boards: Array<{ name: string; columns: string[] }>;
  labels: string[];
  name: string;
  description: string;
}

/** A name of exactly `length` characters that the naming rules accept (one line, no quote or backslash). */
function longName(start: string, length: number): string {
  return `${start} `.padEnd(length, 'abcdefghij');
}

/**
 * Makes a project as large as the settings rules allow, through the store: BOARDS_MAX boards sharing
 * PROJECT_COLUMNS_MAX columns (the last of each board its done column), LABELS_MAX labels, every name as long as
 * allowed, a project name of PROJECT_NAME_MAX double quotes (JSON escapes each) and a description of
 * PROJECT_DESCRIPTION_MAX characters that JSON escapes (quotes, backslashes, line breaks, control characters).
 * Replaces the default board; call it before any ticket exists.
 */
export async function seedLargestSettings(env: Record<string, string>, projectKey: string): Promise<LargestSettings> {
  return withTicketsStore(env, async (db) => {
    const project = await db.selectFrom('projects').select(['id']).where('key', '=', projectKey).executeTakeFirstOrThrow();
    const perBoard = PROJECT_COLUMNS_MAX / BOARDS_MAX;
    const boards = Array.from({ length: BOARDS_MAX }, (_, b) => ({
      id: randomUUID(),
      name: longName(`Board ${b + 1}`, NAME_MAX),
      columns: Array.from({ length: perBoard }, (_, c) => longName(`Stage ${b + 1}.${c + 1}`, NAME_MAX)),
    }));
    const labels = Array.from({ length: LABELS_MAX }, (_, i) => longName(`label-${i + 1}`, LABEL_NAME_MAX));
    const name = '"'.repeat(PROJECT_NAME_MAX);
    const description = '"\\\n\u0001'.repeat(PROJECT_DESCRIPTION_MAX / 4);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('board_columns').where('project_id', '=', project.id).execute();
      await trx.deleteFrom('boards').where('project_id', '=', project.id).execute();
      await trx
        .insertInto('boards')
        .values(boards.map((board, position) => ({ id: board.id, project_id: project.id, name: board.name, position, created_at: minute(0) })))
        .execute();
      await trx
        .insertInto('board_columns')
        .values(
          boards.flatMap((board) =>
            board.columns.map((column, position) => ({
              id: randomUUID(),
              board_id: board.id,
              project_id: project.id,
              name: column,
              position,
              is_done: position === perBoard - 1 ? 1 : 0,
            })),
          ),
        )
        .execute();
      await trx
        .insertInto('labels')
        .values(
          labels.map((label, i) => ({ id: randomUUID(), project_id: project.id, name: label, color: `#${String(i).padStart(6, '0')}`, created_at: minute(i) })),
        )
        .execute();
      await trx.updateTable('projects').set({ name, description }).where('id', '=', project.id).execute();
    });
    return { boards: boards.map((board) => ({ name: board.name, columns: board.columns })), labels, name, description };
  });
}

/**
 * Gives the `count` most recently updated tickets of a seeded project (updated after every other) titles of 500
 * double quotes, what the title rule allows that costs the most, and every label of the project to `labelled`
 * tickets. Returns the keys of the recent ones, most recent first.
 */
export async function seedCostlyTickets(env: Record<string, string>, projectKey: string, count: number, labelled: number): Promise<string[]> {
  return withTicketsStore(env, async (db) => {
    const project = await db.selectFrom('projects').select(['id']).where('key', '=', projectKey).executeTakeFirstOrThrow();
    const tickets = await db
      .selectFrom('tickets')
      .select(['id', 'number'])
      .where('project_id', '=', project.id)
      .orderBy('number')
      .limit(Math.max(count, labelled))
      .execute();
    const labels = await db.selectFrom('labels').select('id').where('project_id', '=', project.id).execute();
    await db.transaction().execute(async (trx) => {
      for (const [i, ticket] of tickets.slice(0, count).entries()) {
        await trx
          .updateTable('tickets')
          .set({ title: '"'.repeat(500), updated_at: `2030-01-01T00:00:${String(i).padStart(2, '0')}.000Z` })
          .where('id', '=', ticket.id)
          .execute();
      }
      const rows = tickets.slice(0, labelled).flatMap((ticket) => labels.map((label) => ({ ticket_id: ticket.id, label_id: label.id })));
      for (let start = 0; start < rows.length; start += 500)
        await trx
          .insertInto('ticket_labels')
          .values(rows.slice(start, start + 500))
          .execute();
    });
    return tickets
      .slice(0, count)
      .reverse()
      .map((ticket) => `${projectKey}-${ticket.number}`);
  });
}

/** A person seeded into the platform database. */
export interface SeededPerson {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
}

/**
 * Adds users to the platform database through its tables (a user created the ordinary way costs a password
 * hash, tens of milliseconds): `members` members of the project and `admins` admins, with names of
 * `nameLength` characters. Returns them by email, as list_members orders them.
 */
export async function seedPeople(
  env: Record<string, string>,
  projectKey: string,
  counts: { members: number; admins: number; nameLength: number },
): Promise<SeededPerson[]> {
  const platform = await openPlatformDatabase(env);
  try {
    const people: SeededPerson[] = Array.from({ length: counts.members + counts.admins }, (_, i) => {
      const role = i < counts.admins ? 'admin' : 'member';
      const email = `${role}-${String(i).padStart(4, '0')}@people.example.com`;
      return { id: randomUUID(), email, name: longName(`Person ${i}`, counts.nameLength), role };
    });
    const users = people.map((person) => ({ ...person, password_hash: 'not-a-password-hash', created_at: minute(0) }));
    for (let start = 0; start < users.length; start += 200)
      await platform.db
        .insertInto('users')
        .values(users.slice(start, start + 200))
        .execute();
    const memberships = people
      .filter((person) => person.role === 'member')
      .map((person) => ({ service: 'tickets', scope_key: projectKey, user_id: person.id, created_at: minute(0) }));
    for (let start = 0; start < memberships.length; start += 200)
      await platform.db
        .insertInto('memberships')
        .values(memberships.slice(start, start + 200))
        .execute();
    return people.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  } finally {
    await platform.close();
  }
}
