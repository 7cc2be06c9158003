import { createServer } from 'node:http';
import { join } from 'node:path';
import { openSmsAdmin } from '../packages/sms/src/index.ts';
import { compare } from './lib/load.ts';
import { startProcess, startService } from './lib/process.ts';
import { openSql, type SqlClient } from './lib/sql.ts';
import type { Row } from './lib/report.ts';
import type { Suite } from './context.ts';

const ROOT = join(import.meta.dirname, '..');
const ORG = 'bench';

/** Inserts messages with ids up to `total` (direction and SIM vary as in a real inbox). */
async function seedMessages(sql: SqlClient, dialect: 'sqlite' | 'postgres', from: number, total: number): Promise<void> {
  const now = new Date().toISOString();
  const values = `'${ORG}', case when i % 5 = 0 then 'outbound' else 'inbound' end, 'sim' || (i % 2 + 1), '+15550100' || (i % 1000),
    '+15550199000', 'Benchmark message number ' || i || ': the quick brown fox jumps over the lazy dog',
    case when i % 5 = 0 then 'sent' else 'received' end, 1, 'native', 'seed-' || i, null, '${now}', null, null, '${now}', '${now}'`;
  const columns =
    'org_id, direction, sim, from_number, to_number, body, status, segments, gateway, external_id, error, received_at, sent_at, delivered_at, created_at, updated_at';
  if (dialect === 'sqlite') {
    await sql.exec(`WITH RECURSIVE n(i) AS (SELECT ${from + 1} UNION ALL SELECT i + 1 FROM n WHERE i < ${total})
      INSERT INTO messages (${columns}) SELECT ${values} FROM n`);
  } else {
    await sql.exec(`INSERT INTO messages (${columns}) SELECT ${values} FROM generate_series(${from + 1}, ${total}) AS i; ANALYZE messages`);
  }
}

function startFakeGateway(): Promise<{ url: string; count: () => number; close: () => void }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/sms`, count: () => received, close: () => server.close() }),
    ),
  );
}

/** SMS: listing at three table sizes, webhook ingest single and batched, /send enqueue and delivery. */
export const benchSms: Suite = async (context) => {
  const rows: Row[] = [];
  const admin = await openSmsAdmin(context.env);
  const { secretKey } = await admin.orgs.createOrganization(ORG, 'Benchmark', new Date());
  const gateway = await startFakeGateway();
  const dialect = context.postgres ? 'postgres' : 'sqlite';
  const sql = context.postgres
    ? openSql({ url: context.postgres.url, schema: `${context.postgres.prefix}_sms` })
    : openSql({ file: join(context.env.DATA_DIR, 'sms.db') });
  const baselineEnv: Record<string, string> = context.postgres
    ? { BASELINE_PG_URL: context.postgres.url, BASELINE_PG_SCHEMA: `${context.postgres.prefix}_sms` }
    : { BASELINE_SQLITE_FILE: join(context.env.DATA_DIR, 'sms.db') };
  const service = await startService('sms', {
    ...context.env,
    SMS_PORT: '0',
    SMS_SEND_RATE_LIMIT: '1000000000/m',
  });
  const baseline = await startProcess(join(ROOT, 'bench/baselines/sms-baseline.ts'), baselineEnv);
  try {
    let seeded = 0;
    for (const size of [10_000, 100_000, 1_000_000]) {
      context.log(`sms: seeding ${size.toLocaleString('en')} messages`);
      await seedMessages(sql, dialect, seeded, size);
      seeded = size;
      const result = await compare(context, service, baseline, (base) => ({ url: `${base}/messages/${ORG}/${secretKey}?limit=100` }));
      rows.push({
        scenario: `sms GET /messages?limit=100 (${size.toLocaleString('en')} msgs)`,
        ...result,
        baseline: result.baseline && { ...result.baseline, label: 'node:http + same query' },
      });
    }

    let counter = 0;
    const single = () =>
      JSON.stringify({
        event: 'sms.received',
        message: { from: '+15550001111', to: '+15552223333', body: `bench ${++counter}`, sim: 'sim1', external_id: `w-${process.pid}-${counter}` },
      });
    const batch = () =>
      JSON.stringify({
        events: Array.from({ length: 100 }, () => ({
          event: 'sms.received',
          message: { from: '+15550001111', to: '+15552223333', body: `bench ${++counter}`, sim: 'sim1', external_id: `w-${process.pid}-${counter}` },
        })),
      });
    const post = (body: () => string) => (base: string) => ({
      url: `${base}/webhook`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', 'x-secret-key': secretKey },
      body,
    });
    context.log('sms: webhook ingest');
    const ingest = await compare(context, service, baseline, post(single));
    rows.push({
      scenario: 'sms POST /webhook (1 msg)',
      ...ingest,
      baseline: ingest.baseline && { ...ingest.baseline, label: 'node:http + same insert' },
      note: `${ingest.service.rps} msgs/s`,
    });
    const batched = await compare(context, service, baseline, post(batch));
    rows.push({
      scenario: 'sms POST /webhook (batch of 100)',
      ...batched,
      baseline: batched.baseline && { ...batched.baseline, label: 'node:http + same insert' },
      unit: '100 msgs/request',
      note: `${batched.service.rps * 100} msgs/s`,
    });

    context.log('sms: /send enqueue and delivery');
    await admin.orgs.setGateway(ORG, 'webhook', { url: gateway.url }, new Date());
    const started = Date.now();
    const enqueue = await compare(context, service, undefined, (base) => ({
      url: `${base}/send/${ORG}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
      body: JSON.stringify({ to: '+15551234567', body: 'Your code is 123456' }),
    }));
    // autocannon stops with requests in flight; let the service commit them before counting.
    await new Promise((r) => setTimeout(r, 1000));
    const total = await countSends(sql);
    const deadline = Date.now() + 120_000;
    while (gateway.count() < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const deliveredPerSecond = Math.round(gateway.count() / ((Date.now() - started) / 1000));
    rows.push({
      scenario: 'sms POST /send (enqueue)',
      service: enqueue.service,
      note: `worker delivered ${gateway.count()}/${total} to a fake webhook gateway at ${deliveredPerSecond} msgs/s`,
    });
  } finally {
    await service.stop();
    await baseline.stop();
    await sql.close();
    await admin.close();
    gateway.close();
  }
  return rows;
};

/** Every message /send accepted in this run (warm-up included). */
async function countSends(sql: SqlClient): Promise<number> {
  const rows = await sql.query<{ n: number }>("select count(*) as n from messages where direction = 'outbound' and body = 'Your code is 123456'");
  return Number(rows[0].n);
}
