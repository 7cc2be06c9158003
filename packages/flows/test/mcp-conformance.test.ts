import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { SERVER_SCENARIOS, runConformanceScenario, tokenProxy } from '@switchboard/core/testing/mcp-conformance';
import { startHarness, type Harness } from './helpers/harness.ts';
import { GREETER_FLOW } from './helpers/greeter-flow.ts';

// The MCP project's own conformance suite against an organization's flows endpoint (design/mcp.md), through a
// proxy that adds a run token; one flow is enabled, so tools-list sees a tool with its schemas.
describe.each(dialectsUnderTest())('the official MCP conformance suite against the flows endpoint on %s', (dialect) => {
  let h: Harness;
  let proxy: Server;
  let outputDir: string;
  beforeAll(async () => {
    h = await startHarness(dialect);
    await h.save(GREETER_FLOW);
    await h.put('/api/llm/acme/flows/greeter/mcp', { enabled: true });
    proxy = await tokenProxy(h.base, h.runToken);
    outputDir = mkdtempSync(join(tmpdir(), 'flows-mcp-conformance-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    rmSync(outputDir, { recursive: true, force: true });
    await h?.close();
  });

  it.each(SERVER_SCENARIOS)(
    'passes %s',
    async (scenario) => {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/llm/acme/mcp`;
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
