import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { createLogger } from '@switchboard/core';
import { callTool } from '../src/mcp/mcp-server.ts';

/** A database whose every query fails as one whose connection was reset does. */
function lostDatabase(): Kysely<unknown> {
  return new Kysely<unknown>({
    dialect: new SqliteDialect({
      database: {
        close: () => undefined,
        prepare: () => {
          throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
        },
      } as never,
    }),
  });
}

describe('an MCP tool call when the database fails', () => {
  it("answers the catalogue's unavailable error (retry later), not an internal error", async () => {
    const logs: string[] = [];
    const logger = createLogger({ service: 'tickets', level: 'warn', destination: { write: (line: string) => void logs.push(line) } });
    const ctx = { db: lostDatabase(), dialect: 'sqlite', project: { id: 'p1', key: 'DEMO', name: 'Demo' } } as never;
    const result = await callTool('get_ticket', ctx, logger, { ticket_id: 'DEMO-1' });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The database is unavailable; retry shortly.' }],
      _meta: { 'dev.switchboard/error': { code: 'unavailable', message: 'The database is unavailable; retry shortly.' } },
    });
    expect(logs.map((line) => JSON.parse(line).msg)).toEqual(['database unavailable; the tool call was refused']);
  });
});
