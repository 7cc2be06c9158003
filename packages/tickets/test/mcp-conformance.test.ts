import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { SERVER_SCENARIOS, runConformanceScenario, tokenProxy } from '@switchboard/core/testing/mcp-conformance';
import { useBoard } from './helpers.ts';

// The MCP project's own conformance suite against the board's endpoint (core's testing/mcp-conformance.ts runs it).
describe.each(dialectsUnderTest())('the official MCP conformance suite against the board on %s', (dialect) => {
  const board = useBoard(dialect);
  let proxy: Server;
  let outputDir: string;
  beforeAll(async () => {
    proxy = await tokenProxy(board.url, board.token);
    outputDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    rmSync(outputDir, { recursive: true, force: true });
  });

  it.each(SERVER_SCENARIOS)(
    'passes %s',
    async (scenario) => {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/mcp/v1/mcp`;
      const { checks, output } = await runConformanceScenario(import.meta.url, url, scenario, join(outputDir, scenario));
      expect(checks.length, output).toBeGreaterThan(0);
      expect(
        checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING'),
        output,
      ).toEqual([]);
    },
    90_000,
  );
});
