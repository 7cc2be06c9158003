// Issue 24's figure: a flow called through the organization's MCP endpoint (tools/call, both protocol eras)
// next to the same flow through POST …/run, on one service, the calls taking turns request by request.
import { Agent, request as httpRequest } from 'node:http';
import { loadConfig, openFlowsStores } from '../packages/flows/src/index.ts';
import { startService } from './lib/process.ts';
import { percentile, type LoadResult } from './lib/load.ts';
import type { Row } from './lib/report.ts';
import type { BenchContext } from './context.ts';

/** One kind of call of the flow: where it goes, its headers, its body. */
interface Call {
  label: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const QUESTION = { question: 'What does the fox do?' };

/** The three calls of flow `slug` of `org`: POST …/run, then tools/call in the legacy era and in 2026-07-28. */
function callsOf(org: string, slug: string, token: string): Call[] {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const mcp = `/api/llm/${org}/mcp`;
  const accept = 'application/json, text/event-stream';
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return [
    { label: 'POST /run', path: `/api/llm/${org}/flows/${slug}/run`, headers: auth, body: JSON.stringify({ input: QUESTION }) },
    {
      label: 'MCP 2025-11-25',
      path: mcp,
      headers: { ...auth, accept, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: slug, arguments: QUESTION } }),
    },
    {
      label: 'MCP 2026-07-28',
      path: mcp,
      headers: { ...auth, accept, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': slug },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: slug, arguments: QUESTION, _meta: envelope } }),
    },
  ];
}

/** `count` rounds of every call in turn, one request at a time on one kept-alive connection; each call's figures. */
async function takeTurns(base: string, calls: Call[], count: number): Promise<LoadResult[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const one = (call: Call) =>
    new Promise<{ ms: number; ok: boolean }>((resolve) => {
      const started = performance.now();
      const req = httpRequest(
        `${base}${call.path}`,
        { method: 'POST', agent, headers: { ...call.headers, 'content-length': Buffer.byteLength(call.body) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ ms: performance.now() - started, ok: res.statusCode === 200 && !text.includes('"isError":true') }));
        },
      );
      req.on('error', () => resolve({ ms: NaN, ok: false }));
      req.end(call.body);
    });
  const times: number[][] = calls.map(() => []);
  const errors = calls.map(() => 0);
  const started = performance.now();
  try {
    for (let round = 0; round < count; round++) {
      for (const [index, call] of calls.entries()) {
        const { ms, ok } = await one(call);
        if (ok) times[index].push(ms);
        else errors[index] += 1;
      }
    }
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  return calls.map((_, index) => ({
    requests: count,
    rps: Math.round(count / seconds),
    p50: percentile(times[index], 50),
    p99: percentile(times[index], 99),
    errors: errors[index],
    non2xx: errors[index],
  }));
}

/**
 * The flow `chat` of `org` (enabled as an MCP tool here) called through MCP in both eras against POST …/run,
 * on one fresh service, the three taking turns: a busy spell of the machine falls on all alike. Target: MCP adds
 * at most 0.5 ms at p50.
 */
export async function mcpOverhead(context: BenchContext, env: Record<string, string>, org: string, token: string): Promise<Row[]> {
  const stores = await openFlowsStores(loadConfig(env));
  try {
    const flow = (await stores.mcp.get((await stores.orgs.findOrg(org))!.id, 'chat'))!;
    await stores.mcp.set(flow.id, { enabled: true, toolName: 'chat', description: null });
  } finally {
    await stores.close();
  }
  const service = await startService('flows', env);
  try {
    const calls = callsOf(org, 'chat', token);
    const count = context.quick ? 1000 : 5000;
    context.log(`flows-ops: a flow through MCP (both eras) against POST /run, ${count} calls each, taking turns`);
    await takeTurns(service.url, calls, 300);
    const [run, ...mcp] = await takeTurns(service.url, calls, count);
    return mcp.map((result, index) => {
      const delta = result.p50 - run.p50;
      return {
        scenario: `flows MCP tools/call (${calls[index + 1].label}) against POST /run, 1 connection`,
        unit: `${count} calls each, the calls taking turns request by request; the flow: 1 llm node on the fake model`,
        service: { ...result, peakRssMiB: service.peakRssMiB() },
        baseline: { ...run, label: 'POST /run, same service' },
        note: `p50 ${delta >= 0 ? '+' : ''}${delta.toFixed(3)} ms through MCP (target ≤ 0.5 ms)`,
      };
    });
  } finally {
    await service.stop();
  }
}
