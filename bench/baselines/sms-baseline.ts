// The practical limit of this stack for the SMS reads and the webhook write:
// node:http, the same queries on the same database, the same JSON, nothing else.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { openSql } from '../lib/sql.ts';

const sql = process.env.BASELINE_PG_URL
  ? openSql({ url: process.env.BASELINE_PG_URL, schema: process.env.BASELINE_PG_SCHEMA! })
  : openSql({ file: process.env.BASELINE_SQLITE_FILE! });

const COLUMNS =
  'id, org_id, direction, sim, from_number, to_number, body, body_utf8, status, segments, gateway, external_id, error, received_at, sent_at, delivered_at, created_at, updated_at';

async function orgOfKey(key: string | undefined): Promise<string | undefined> {
  if (!key) return undefined;
  const hash = createHash('sha256').update(key).digest('hex');
  const rows = await sql.query<{ org_id: string }>('select org_id from api_keys where hash = ? and revoked_at is null', [hash]);
  return rows[0]?.org_id;
}

/** A message row as COLUMNS selects it. */
interface MessageRow {
  id: number;
  org_id: string;
  direction: string;
  sim: string | null;
  from_number: string;
  to_number: string;
  body: string;
  body_utf8: Uint8Array | null;
  status: string;
  segments: number;
  gateway: string;
  external_id: string | null;
  error: string | null;
  received_at: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One event of a webhook body: the fields of its message the insert below reads. */
interface WebhookEvent {
  message: { sim?: string | null; from: string; to: string; body: string; external_id?: string | null };
}

function present(row: MessageRow) {
  return {
    id: row.id,
    org_id: row.org_id,
    direction: row.direction,
    sim: row.sim,
    from: row.from_number,
    to: row.to_number,
    body: row.body_utf8 === null ? row.body : Buffer.from(row.body_utf8).toString('utf8'),
    status: row.status,
    segments: row.segments,
    gateway: row.gateway,
    external_id: row.external_id,
    error: row.error,
    received_at: row.received_at,
    sent_at: row.sent_at,
    delivered_at: row.delivered_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url!, 'http://x');
  const parts = url.pathname.split('/');
  if (req.method === 'GET' && parts[1] === 'messages' && parts.length === 4) {
    const org = await orgOfKey(parts[3]);
    if (org !== parts[2]) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"Invalid credentials"}');
      return;
    }
    const limit = Number(url.searchParams.get('limit') ?? 100);
    const since = Number(url.searchParams.get('since_id') ?? 0);
    const rows = await sql.query<MessageRow>(`select ${COLUMNS} from messages where org_id = ? and id > ? order by id limit ?`, [org, since, limit + 1]);
    const hasMore = rows.length > limit;
    if (hasMore) rows.pop();
    const messages = rows.map(present);
    const body = JSON.stringify({
      messages,
      count: messages.length,
      next_since_id: messages.length ? messages[messages.length - 1].id : since,
      has_more: hasMore,
    });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    return;
  }
  if (req.method === 'POST' && url.pathname === '/webhook') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const org = await orgOfKey(req.headers['x-secret-key'] as string | undefined);
    if (!org) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"Invalid credentials"}');
      return;
    }
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const events: WebhookEvent[] = parsed.events ?? [parsed];
    const now = new Date().toISOString();
    const stored = await sql.transaction(async (tx) => {
      await tx.query('update organizations set seq = seq + 1 where org_id = ?', [org]);
      const ids: number[] = [];
      for (const event of events) {
        const m = event.message;
        const rows = await tx.query<{ id: number }>(
          `insert into messages (org_id, direction, sim, from_number, to_number, body, status, segments, gateway, external_id, error, received_at, sent_at, delivered_at, created_at, updated_at)
           values (?, 'inbound', ?, ?, ?, ?, 'received', 1, 'native', ?, null, ?, null, null, ?, ?) returning id`,
          [org, m.sim ?? null, m.from, m.to, m.body, m.external_id ?? null, now, now, now],
        );
        ids.push(rows[0].id);
      }
      return ids;
    });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ status: 'ok', stored, duplicates: 0, updated: 0 }));
    return;
  }
  res.writeHead(404).end();
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`SMS baseline listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => sql.close().then(() => process.exit(0))));
