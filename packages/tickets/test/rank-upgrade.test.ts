import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@switchboard/core';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { createProject, loadConfig, withTicketsStore } from '../src/index.ts';
import { ticketMigrations } from '../src/store/migrations.ts';
import type { TicketsDatabase } from '../src/store/tables.ts';

describe.each(dialectsUnderTest())('the upgrade that gives tickets a rank (0008_ticket_rank) on %s', (dialect) => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.cleanup());

  it('ranks the tickets of each lane in the order the board showed them (most recently updated first, then the higher number)', async () => {
    database = await createTestDatabase(dialect);
    const env = { ...database.env, LOG_LEVEL: 'silent' };
    const config = loadConfig(env);
    const before = Object.fromEntries(Object.entries(ticketMigrations).filter(([name]) => name < '0008'));
    const old = await openDatabase<TicketsDatabase>({
      url: config.databaseUrl,
      urlVariable: config.databaseUrlVariable,
      sqliteFile: join(config.dataDir, 'tickets.db'),
      schema: 'tickets',
      migrations: before,
    });
    try {
      await createProject(old.db, { key: 'OLD', name: 'Before the upgrade' });
      const project = await old.db.selectFrom('projects').select('id').where('key', '=', 'OLD').executeTakeFirstOrThrow();
      const columns = await old.db.selectFrom('board_columns').select(['id', 'name']).where('project_id', '=', project.id).orderBy('position').execute();
      const [backlog, todo] = [columns[0]!.id, columns[1]!.id];
      // number, column, updated_at: the board showed Backlog as 3 (newest), 4 and 1 (same time: the higher number first), 2.
      const rows: Array<[number, string, string]> = [
        [1, backlog, '2025-01-02T00:00:00.000Z'],
        [2, backlog, '2025-01-01T00:00:00.000Z'],
        [3, backlog, '2025-01-05T00:00:00.000Z'],
        [4, backlog, '2025-01-02T00:00:00.000Z'],
        [5, todo, '2025-01-03T00:00:00.000Z'],
        [6, todo, '2025-01-04T00:00:00.000Z'],
      ];
      // The rank column does not exist yet: these rows are what an older version wrote.
      await old.db
        .insertInto('tickets')
        .values(
          rows.map(([number, column_id, updated_at]) => ({
            id: randomUUID(),
            project_id: project.id,
            number,
            title: `Ticket ${number}`,
            description: '',
            priority: 'medium',
            ticket_type: 'task',
            column_id,
            parent_id: null,
            assignee: null,
            created_at: updated_at,
            updated_at,
            completed_at: null,
            ai_summary: null,
            ai_summary_source: null,
            summary_version: 1,
            summarized_version: 0,
            summary_claimed_until: null,
          })) as never,
        )
        .execute();
    } finally {
      await old.close();
    }
    const ranked = await withTicketsStore(env, (db) =>
      db.selectFrom('tickets').select(['number', 'rank']).orderBy('column_id').orderBy('rank').orderBy('number').execute(),
    );
    const byNumber = new Map(ranked.map((row) => [row.number, row.rank]));
    expect([3, 4, 1, 2].map((n) => byNumber.get(n))).toEqual([65_536, 131_072, 196_608, 262_144]);
    expect([6, 5].map((n) => byNumber.get(n))).toEqual([65_536, 131_072]);
  });
});
