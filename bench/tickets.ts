import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { BASE_PATH, MCP_PATH, createLabel, createProject, createToken, withTicketsStore } from '../packages/tickets/src/index.ts';
import { startProcess, startService } from './lib/process.ts';
import { compare, warnOnFailures } from './lib/load.ts';
import type { Row } from './lib/report.ts';
import type { Suite } from './context.ts';

const ROOT = join(import.meta.dirname, '..');
const KEY = 'BENCH';
const TICKETS = 10_000;
/** A sub-ticket (of epic BENCH-5001) with labels, comments and activity: every query of the ticket read has rows to return. */
const TARGET = 5002;
const SEARCH = 'checkout';

const VERBS = ['Fix', 'Add', 'Refactor', 'Document', 'Speed up', 'Test', 'Remove'];
const AREAS = ['checkout', 'login', 'search', 'billing', 'profile', 'admin', 'reports', 'cart', 'export', 'import', 'settings', 'mobile', 'API'];
const THINGS = ['validation', 'error message', 'cache', 'pagination', 'layout', 'permissions', 'retry logic', 'timeouts', 'logging', 'form', 'webhook'];
const TYPES = ['task', 'bug', 'story'];
const PRIORITIES = ['lowest', 'low', 'medium', 'high', 'highest'];

/** Seeds project BENCH (Auto-Summary off) with 10,000 tickets: every 20th an epic with 4 sub-tickets, one 'created' activity each, labels, documents. */
export async function seedProject(env: Record<string, string>): Promise<string> {
  return withTicketsStore(env, async (db) => {
    const { project_id: projectId } = await createProject(db, { key: KEY, name: 'Benchmark', description: 'Seeded by npm run bench', autoSummary: false });
    const labels = [await createLabel(db, KEY, 'backend', '#2563eb'), await createLabel(db, KEY, 'urgent', '#dc2626')];
    const columns = await db.selectFrom('board_columns').select(['id', 'is_done']).where('project_id', '=', projectId).orderBy('position').execute();
    const base = Date.parse('2026-01-01T00:00:00Z');
    const at = (n: number) => new Date(base + n * 60_000).toISOString();
    const ids = Array.from({ length: TICKETS + 1 }, () => randomUUID());
    await db.transaction().execute(async (trx) => {
      for (let start = 1; start <= TICKETS; start += 500) {
        const tickets = [];
        const activity = [];
        const ticketLabels = [];
        for (let n = start; n < Math.min(start + 500, TICKETS + 1); n++) {
          const slot = n % 20;
          const epic = slot === 1;
          const parent = slot >= 2 && slot <= 5 ? ids[n - slot + 1] : null;
          const column = columns[n % columns.length];
          tickets.push({
            id: ids[n],
            project_id: projectId,
            number: n,
            title: `${VERBS[n % VERBS.length]} ${AREAS[n % AREAS.length]} ${THINGS[n % THINGS.length]}${epic ? ' (epic)' : ''}`,
            description: `The ${AREAS[(n + 3) % AREAS.length]} page shows the wrong ${THINGS[(n + 5) % THINGS.length]} after a refresh. Steps: open it, change a value, reload. Expected: the new value. Seen in release ${n % 40}.`,
            priority: PRIORITIES[n % PRIORITIES.length],
            ticket_type: epic ? 'epic' : TYPES[n % TYPES.length],
            column_id: column.id,
            parent_id: parent,
            assignee: null,
            created_at: at(n),
            updated_at: at(n),
            completed_at: column.is_done === 1 ? at(n) : null,
            ai_summary: null,
            ai_summary_source: null,
            summary_version: 1,
            summarized_version: 1,
            summary_claimed_until: null,
          });
          activity.push({ ticket_id: ids[n], project_id: projectId, action: 'created', detail: `Created in column ${n % columns.length}`, actor: 'token:import', created_at: at(n) });
          if (n % 3 === 0) ticketLabels.push({ ticket_id: ids[n], label_id: labels[0].id });
        }
        await trx.insertInto('tickets').values(tickets).execute();
        await trx.insertInto('activity').values(activity).execute();
        if (ticketLabels.length) await trx.insertInto('ticket_labels').values(ticketLabels).execute();
      }
      const target = ids[TARGET];
      await trx.insertInto('ticket_labels').values({ ticket_id: target, label_id: labels[1].id }).execute();
      for (let i = 1; i <= 3; i++) {
        const created_at = at(TARGET + i);
        await trx.insertInto('comments').values({ id: randomUUID(), ticket_id: target, project_id: projectId, content: `Progress note ${i}: looked into the cause, details in the PR.`, author: 'token:agent', created_at }).execute();
        await trx.insertInto('activity').values({ ticket_id: target, project_id: projectId, action: 'commented', detail: `Comment ${i}`, actor: 'token:agent', created_at }).execute();
      }
      const docs = [
        { slug: 'readme', title: 'README', doc_type: 'readme', content: 'The benchmark project. '.repeat(200) },
        ...['architecture', 'checkout-flow', 'release-process'].map((slug) => ({ slug, title: slug.replace('-', ' '), doc_type: 'wiki', content: `How the ${slug} works. `.repeat(50) })),
      ];
      await trx.insertInto('documents').values(docs.map((doc) => ({ id: randomUUID(), project_id: projectId, ...doc, created_at: at(0), updated_at: at(0) }))).execute();
      await trx.updateTable('projects').set({ ticket_counter: TICKETS }).where('id', '=', projectId).execute();
    });
    return (await createToken(db, KEY, 'bench')).token;
  });
}

async function getJson(url: string, init: RequestInit): Promise<{ status: number; body: any; bytes: number }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, bytes: Buffer.byteLength(text) };
}

/** Ticket board: the ticket read over REST (against a node:http baseline) and MCP, search, project status, create_ticket. */
export const benchTickets: Suite = async (outer) => {
  const started = performance.now();
  const context = { ...outer, log: (message: string) => outer.log(`${message} (${((performance.now() - started) / 1000).toFixed(1)} s)`) };
  const rows: Row[] = [];
  context.log(`tickets: seeding ${TICKETS.toLocaleString('en')} tickets`);
  const token = await seedProject(context.env);
  const baselineEnv: Record<string, string> = context.postgres
    ? { BASELINE_PG_URL: context.postgres.url, BASELINE_PG_SCHEMA: `${context.postgres.prefix}_tickets` }
    : { BASELINE_SQLITE_FILE: join(context.env.DATA_DIR, 'tickets.db') };
  const service = await startService('tickets', { ...context.env, TICKETS_PORT: '0' });
  const baseline = await startProcess(join(ROOT, 'bench/baselines/tickets-baseline.ts'), baselineEnv);
  const auth = { authorization: `Bearer ${token}` };
  const target = `${KEY}-${TARGET}`;
  const mcpHeaders = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_ticket', arguments: { ticket_id: target } } });
  try {
    // Check every request once before measuring it: a benchmark of error responses measures nothing.
    const fromService = await getJson(`${service.url}${BASE_PATH}/tickets/${target}`, { headers: auth });
    const fromBaseline = await getJson(`${baseline.url}${BASE_PATH}/tickets/${target}`, { headers: auth });
    if (fromService.status !== 200 || fromService.body.key !== target) throw new Error(`tickets: GET /tickets/${target} answered ${fromService.status}`);
    const same = JSON.stringify(fromService.body) === JSON.stringify(fromBaseline.body);
    if (!same) context.log(`tickets: WARNING the baseline's JSON differs from the service's:\n${JSON.stringify(fromService.body)}\n${JSON.stringify(fromBaseline.body)}`);
    // Stateless MCP: tools/call is answered without a prior initialize.
    const mcp = await getJson(`${service.url}${MCP_PATH}`, { method: 'POST', headers: mcpHeaders, body: mcpBody });
    if (mcp.status !== 200 || mcp.body?.result?.structuredContent?.key !== target) throw new Error(`tickets: MCP get_ticket answered ${mcp.status} ${JSON.stringify(mcp.body).slice(0, 300)}`);
    const searched = await getJson(`${service.url}${BASE_PATH}/search?q=${SEARCH}&scope=all`, { headers: auth });
    const status = await getJson(`${service.url}${BASE_PATH}/status`, { headers: auth });
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
    const overMcp = await compare(context, service, undefined, (base) => ({ url: `${base}${MCP_PATH}`, method: 'POST', headers: mcpHeaders, body: mcpBody }));
    warnOnFailures(context, 'tickets MCP get_ticket', overMcp);
    const extra = (overMcp.service.p50 - rest.service.p50).toFixed(2);
    rows.push({
      scenario: 'tickets MCP tools/call get_ticket (same ticket)',
      service: overMcp.service,
      baseline: { ...rest.service, label: 'REST GET (service)' },
      note: `stateless, no initialize needed; median ${extra} ms over REST`,
    });

    context.log('tickets: search, status, create');
    const search = await compare(context, service, undefined, (base) => ({ url: `${base}${BASE_PATH}/search?q=${SEARCH}&scope=all`, headers: auth }));
    warnOnFailures(context, 'tickets search', search);
    rows.push({ scenario: `tickets GET /search?q=${SEARCH} (search)`, service: search.service, note: `${searched.body.results.length} results (limit 20) ranked from ~${Math.round(TICKETS / AREAS.length)} matching tickets + documents` });
    // Each answer is the whole ticket index (~1 MB): 2 connections, or a quick run completes no request at all on a loaded machine.
    const projectStatus = await compare({ ...context, connections: 2 }, service, undefined, (base) => ({ url: `${base}${BASE_PATH}/status`, headers: auth }));
    warnOnFailures(context, 'tickets status', projectStatus);
    rows.push({ scenario: 'tickets GET /status (get_project_status)', service: projectStatus.service, unit: '2 connections', note: `the index of all ${TICKETS.toLocaleString('en')} tickets, ${Math.round(status.bytes / 1024)} KiB per response` });
    let counter = 0;
    const create = await compare(context, service, undefined, (base) => ({
      url: `${base}${BASE_PATH}/tickets`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: () => JSON.stringify({ title: `Bench ticket ${++counter}`, description: 'Created by the benchmark.', column_name: 'To Do', priority: 'high', ticket_type: 'bug' }),
    }));
    warnOnFailures(context, 'tickets create', create);
    rows.push({ scenario: 'tickets POST /tickets (create_ticket)', service: create.service, note: `${create.service.rps} tickets/s; Auto-Summary off for the project, so the summary worker stays idle` });
  } finally {
    await service.stop();
    await baseline.stop();
  }
  return rows;
};
