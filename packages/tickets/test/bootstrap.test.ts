import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { bootstrap } from '../src/index.ts';
import { restCaller, startBoard, type Board } from './helpers.ts';

describe.each(dialectsUnderTest())('first-start bootstrap on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it('creates the DEMO project with a token and prints working connection lines', async () => {
    const result = await bootstrap({ ...database.env, TICKETS_PORT: '8103' });
    expect(result.title).toBe('Ticket board (MCP + REST)');
    const [keyLine, tokenLine, curl, claude, browserLine] = result.lines;
    expect(browserLine).toMatch(/^board in the browser: http:\/\/127\.0\.0\.1:8103\/ \(sign in as the admin user above\)$/);
    expect(keyLine).toBe('project key: DEMO');
    const token = /^token: +(sbt_[A-Za-z0-9_-]{43})$/.exec(tokenLine)![1];
    expect(curl).toBe(`curl -H "Authorization: Bearer ${token}" http://127.0.0.1:8103/api/mcp/v1/status`);
    expect(claude).toBe(`claude mcp add --transport http switchboard-tickets http://127.0.0.1:8103/api/mcp/v1/mcp --header "Authorization: Bearer ${token}"`);
    // A second bootstrap (reset platform database) does not collide with DEMO.
    expect((await bootstrap(database.env)).lines[0]).toBe('project key: DEMO2');

    const board: Board = await startBoard(dialect, { key: 'OTHER', env: database.env });
    try {
      const status = await restCaller(board.url, token)('get_project_status');
      expect(status.project).toEqual({
        key: 'DEMO',
        name: 'Demo project',
        description: 'Created on the first start of Switchboard.',
        settings: { auto_summary: true },
      });
    } finally {
      // The board ran on this test's database; close() would also drop the fresh one startBoard made.
      await board.close();
    }
  });
});
