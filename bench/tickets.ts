import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_PATH, MCP_PATH } from '../packages/tickets/src/index.ts';
import { startProcess, startService } from './lib/process.ts';
import { compare, warnOnFailures } from './lib/load.ts';
import type { Row } from './lib/report.ts';
import type { Suite } from './context.ts';
import { SEED_AREAS, seedProject } from './tickets-seed.ts';
import { SIZE_PROJECTS, answerSizes, sizeNote } from './tickets-sizes.ts';

const ROOT = join(import.meta.dirname, '..');
const KEY = 'BENCH';
const TICKETS = 10_000;
/** A sub-ticket (of epic BENCH-5001) with labels, comments and activity: every query of the ticket read has rows to return. */
const TARGET = 5002;
const SEARCH = 'checkout';

/** A JSON request; `T` names the parts of the body the caller reads (undefined when the body is empty). */
async function getJson<T = unknown>(url: string, init: RequestInit): Promise<{ status: number; body: T; bytes: number }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, bytes: Buffer.byteLength(text) };
}

/**
 * Ticket board: the ticket read over REST (against a node:http baseline) and MCP, search, project status,
 * create_ticket; then the sizes of the listing answers an agent gets at 100, 1,000 and 10,000 tickets, with
 * get_project_status over MCP at each size.
 */
export const benchTickets: Suite = async (outer) => {
  const started = performance.now();
  const context = { ...outer, log: (message: string) => outer.log(`${message} (${((performance.now() - started) / 1000).toFixed(1)} s)`) };
  const rows: Row[] = [];
  context.log(`tickets: seeding ${TICKETS.toLocaleString('en')} tickets`);
  const token = await seedProject(context.env, { key: KEY, tickets: TICKETS, autoSummary: false, realistic: false, target: TARGET });
  const baselineEnv: Record<string, string> = context.postgres
    ? { BASELINE_PG_URL: context.postgres.url, BASELINE_PG_SCHEMA: `${context.postgres.prefix}_tickets` }
    : { BASELINE_SQLITE_FILE: join(context.env.DATA_DIR, 'tickets.db') };
  const service = await startService('tickets', { ...context.env, TICKETS_PORT: '0' });
  const baseline = await startProcess(join(ROOT, 'bench/baselines/tickets-baseline.ts'), baselineEnv);
  const auth = { authorization: `Bearer ${token}` };
  const target = `${KEY}-${TARGET}`;
  const mcpHeaders = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_ticket', arguments: { ticket_id: target } } });
  // The same call in the 2026-07-28 era: the standard headers and the per-request envelope a v2 client sends.
  const modernHeaders = { ...mcpHeaders, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_ticket' };
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const modernBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_ticket', arguments: { ticket_id: target }, _meta: envelope },
  });
  try {
    // Check every request once before measuring it: a benchmark of error responses measures nothing.
    const fromService = await getJson<{ key: string }>(`${service.url}${BASE_PATH}/tickets/${target}`, { headers: auth });
    const fromBaseline = await getJson(`${baseline.url}${BASE_PATH}/tickets/${target}`, { headers: auth });
    if (fromService.status !== 200 || fromService.body.key !== target) throw new Error(`tickets: GET /tickets/${target} answered ${fromService.status}`);
    const same = JSON.stringify(fromService.body) === JSON.stringify(fromBaseline.body);
    if (!same)
      context.log(
        `tickets: WARNING the baseline's JSON differs from the service's:\n${JSON.stringify(fromService.body)}\n${JSON.stringify(fromBaseline.body)}`,
      );
    // Stateless MCP: tools/call is answered without a prior initialize.
    const mcp = await getJson<{ result?: { structuredContent?: { key?: string } } } | undefined>(`${service.url}${MCP_PATH}`, {
      method: 'POST',
      headers: mcpHeaders,
      body: mcpBody,
    });
    if (mcp.status !== 200 || mcp.body?.result?.structuredContent?.key !== target)
      throw new Error(`tickets: MCP get_ticket answered ${mcp.status} ${JSON.stringify(mcp.body).slice(0, 300)}`);
    const modern = await getJson<{ result?: { structuredContent?: { key?: string }; resultType?: string } } | undefined>(`${service.url}${MCP_PATH}`, {
      method: 'POST',
      headers: modernHeaders,
      body: modernBody,
    });
    if (modern.status !== 200 || modern.body?.result?.resultType !== 'complete' || modern.body.result.structuredContent?.key !== target) {
      throw new Error(`tickets: MCP get_ticket (2026-07-28) answered ${modern.status} ${JSON.stringify(modern.body).slice(0, 300)}`);
    }
    const searched = await getJson<{ results: unknown[] }>(`${service.url}${BASE_PATH}/search?q=${SEARCH}&scope=all`, { headers: auth });
    const status = await getJson<{ stats: { total: number }; boards: Array<{ columns: Array<{ tickets: unknown[] }> }> }>(`${service.url}${BASE_PATH}/status`, {
      headers: auth,
    });
    if (searched.status !== 200 || status.status !== 200 || status.body.stats.total !== TICKETS) throw new Error('tickets: search or status failed');

    context.log('tickets: ticket read, REST and MCP');
    const rest = await compare(context, service, baseline, (base) => ({ url: `${base}${BASE_PATH}/tickets/${target}`, headers: auth }));
    warnOnFailures(context, 'tickets REST read', rest);
    rows.push({
      scenario: `tickets REST GET /tickets/{id} (${TICKETS.toLocaleString('en')} tickets)`,
      ...rest,
      baseline: rest.baseline && { ...rest.baseline, label: 'node:http + same queries' },
      note: `a sub-ticket with parent, labels, 3 comments, 4 activity entries (${fromService.bytes} B)${same ? '; baseline JSON identical' : '; baseline JSON DIFFERS'}`,
    });
    for (const [era, headers, body] of [
      ['2025-06-18', mcpHeaders, mcpBody],
      ['2026-07-28', modernHeaders, modernBody],
    ] as const) {
      // MCP and REST on the same service take turns (rounds), so a slow spell of the machine falls on both.
      const overMcp = await compare(context, service, service, (base, side) =>
        side === 'service' ? { url: `${base}${MCP_PATH}`, method: 'POST', headers, body } : { url: `${base}${BASE_PATH}/tickets/${target}`, headers: auth },
      );
      warnOnFailures(context, `tickets MCP get_ticket (${era})`, overMcp);
      const restSide = overMcp.baseline!;
      const extra = (overMcp.service.p50 - restSide.p50).toFixed(2);
      rows.push({
        scenario: `tickets MCP tools/call get_ticket, ${era} (same ticket)`,
        service: overMcp.service,
        baseline: { ...restSide, label: 'REST GET (service, same rounds)' },
        note: `stateless, no initialize needed; median ${extra} ms over REST`,
      });
    }

    context.log('tickets: search, status, create');
    const search = await compare(context, service, undefined, (base) => ({ url: `${base}${BASE_PATH}/search?q=${SEARCH}&scope=all`, headers: auth }));
    warnOnFailures(context, 'tickets search', search);
    rows.push({
      scenario: `tickets GET /search?q=${SEARCH} (search)`,
      service: search.service,
      note: `${searched.body.results.length} results (limit 20) ranked from ~${Math.round(TICKETS / SEED_AREAS.length)} matching tickets + documents`,
    });
    // 2 connections, as when each answer was the whole index (926 KiB, 31 ms p50): the figures compare with those.
    const projectStatus = await compare({ ...context, connections: 2 }, service, undefined, (base) => ({ url: `${base}${BASE_PATH}/status`, headers: auth }));
    warnOnFailures(context, 'tickets status', projectStatus);
    const cut = status.body.boards
      .flatMap((board: { columns: Array<{ tickets: unknown[] }> }) => board.columns)
      .reduce((sum: number, column: { tickets: unknown[] }) => sum + column.tickets.length, 0);
    rows.push({
      scenario: 'tickets GET /status (get_project_status)',
      service: projectStatus.service,
      unit: '2 connections',
      note: `${TICKETS.toLocaleString('en')} tickets, the column indexes cut to ${cut} of them: ${Math.round(status.bytes / 1024)} KiB per response (the whole index was 926 KiB)`,
    });
    let counter = 0;
    const create = await compare(context, service, undefined, (base) => ({
      url: `${base}${BASE_PATH}/tickets`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: () =>
        JSON.stringify({
          title: `Bench ticket ${++counter}`,
          description: 'Created by the benchmark.',
          column_name: 'To Do',
          priority: 'high',
          ticket_type: 'bug',
        }),
    }));
    warnOnFailures(context, 'tickets create', create);
    rows.push({
      scenario: 'tickets POST /tickets (create_ticket)',
      service: create.service,
      note: `${create.service.rps} tickets/s; Auto-Summary off for the project, so the summary worker stays idle`,
    });
  } finally {
    await service.stop();
    await baseline.stop();
  }
  rows.push(...(await benchAnswerSizes(context)));
  return rows;
};

/** The environment of a second store beside the run's (a directory under DATA_DIR, or schemas under a longer prefix). */
function sizesEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...env, DATA_DIR: join(env.DATA_DIR, 'sizes') };
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    // run.ts drops every schema of its prefix, these too.
    url.searchParams.set('schema_prefix', `${url.searchParams.get('schema_prefix')}_sizes`);
    out.DATABASE_URL = url.toString();
  }
  return out;
}

/**
 * The answers an agent gets at 100, 1,000 and 10,000 tickets (projects as agents fill them: 45-character titles,
 * an AI summary on every ticket, Auto-Summary on), and get_project_status over MCP at each size. On a store of
 * their own, so the other scenarios keep the database they always had (search reads every project's matches).
 */
async function benchAnswerSizes(context: Parameters<Suite>[0]): Promise<Row[]> {
  const env = sizesEnv(context.env);
  mkdirSync(env.DATA_DIR, { recursive: true });
  context.log(`tickets: seeding projects of ${SIZE_PROJECTS.map((count) => count.toLocaleString('en')).join(', ')} tickets`);
  const tokens: string[] = [];
  for (const count of SIZE_PROJECTS) tokens.push(await seedProject(env, { key: `SIZE${count}`, tickets: count, autoSummary: true, realistic: true }));
  const service = await startService('tickets', { ...env, TICKETS_PORT: '0' });
  const rows: Row[] = [];
  try {
    for (const [i, count] of SIZE_PROJECTS.entries()) {
      context.log(`tickets: answer sizes and get_project_status at ${count.toLocaleString('en')} tickets`);
      const sizes = await answerSizes(service.url, tokens[i], SEARCH);
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        authorization: `Bearer ${tokens[i]}`,
      };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_project_status', arguments: {} } });
      const status = await compare({ ...context, connections: 2 }, service, undefined, (base) => ({
        url: `${base}${MCP_PATH}`,
        method: 'POST',
        headers,
        body,
      }));
      warnOnFailures(context, `tickets MCP get_project_status (${count} tickets)`, status);
      rows.push({
        scenario: `tickets MCP get_project_status (${count.toLocaleString('en')} tickets, as agents fill them)`,
        service: status.service,
        unit: '2 connections',
        note: sizeNote(sizes),
      });
    }
  } finally {
    await service.stop();
  }
  return rows;
}
