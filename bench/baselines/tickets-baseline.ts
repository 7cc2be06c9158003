// The practical limit of this stack for the ticket read: node:http, the queries
// the service runs for GET /tickets/{id} (token by hash with its project, the
// ticket, then columns, parent, sub-tickets, labels, comments and activity at
// once) on the same database, the same JSON fields, nothing else.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { openSql } from '../lib/sql.ts';

const sql = process.env.BASELINE_PG_URL
  ? openSql({ url: process.env.BASELINE_PG_URL, schema: process.env.BASELINE_PG_SCHEMA! })
  : openSql({ file: process.env.BASELINE_SQLITE_FILE! });

const PREFIX = '/api/mcp/v1/tickets/';
const RELATED = 'id, number, title, column_id, priority, ticket_type, parent_id, completed_at';
const TICKET =
  'id, number, title, description, priority, ticket_type, column_id, parent_id, assignee, created_at, updated_at, completed_at, ai_summary, ai_summary_source';

interface Project {
  id: string;
  key: string;
}

/** The rows the queries below read, by their selected columns (TICKET, RELATED and the joins). */
interface TicketRow {
  id: string;
  number: number;
  title: string;
  description: string;
  priority: string;
  ticket_type: string;
  column_id: string;
  parent_id: string | null;
  assignee: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  ai_summary: string | null;
  ai_summary_source: string | null;
}
type RelatedRow = Pick<TicketRow, 'id' | 'number' | 'title' | 'column_id' | 'priority' | 'ticket_type' | 'parent_id' | 'completed_at'>;
interface ColumnRow {
  id: string;
  name: string;
  board_name: string;
}
interface LabelRow {
  ticket_id: string;
  id: string;
  name: string;
  color: string;
}
interface CommentRow {
  id: string;
  content: string;
  author: string;
  created_at: string;
}
interface ActivityRow {
  id: number;
  action: string;
  detail: string;
  actor: string;
  created_at: string;
}

async function projectOfToken(header: string | undefined): Promise<Project | undefined> {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const hash = createHash('sha256').update(match[1]).digest('hex');
  const rows = await sql.query<Project>(
    `select t.id as token_id, t.name as token_name, t.last_used_at, p.id, p.key, p.name, p.description, p.auto_summary
     from api_tokens t join projects p on p.id = t.project_id where t.token_hash = ? and t.revoked_at is null`,
    [hash],
  );
  return rows[0];
}

function send(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' || !req.url?.startsWith(PREFIX)) return send(res, 404, { error: { code: 'not_found', message: 'Not found' } });
  const project = await projectOfToken(req.headers.authorization);
  if (!project) return send(res, 401, { error: { code: 'unauthorized', message: 'Unknown or revoked token' } });
  const ref = /^([A-Za-z][A-Za-z0-9]*)-(\d+)$/.exec(decodeURIComponent(req.url.slice(PREFIX.length)));
  if (!ref || ref[1].toUpperCase() !== project.key) return send(res, 404, { error: { code: 'not_found', message: 'Ticket not found' } });
  const [row] = await sql.query<TicketRow>(`select ${TICKET} from tickets where project_id = ? and number = ?`, [project.id, Number(ref[2])]);
  if (!row) return send(res, 404, { error: { code: 'not_found', message: 'Ticket not found' } });
  const [columns, parents, subs, labels, comments, activity] = await Promise.all([
    sql.query<ColumnRow>(
      `select c.id, c.name, b.name as board_name from board_columns c join boards b on b.id = c.board_id
       where c.project_id = ? order by b.position, c.position`,
      [project.id],
    ),
    row.parent_id ? sql.query<RelatedRow>(`select ${RELATED} from tickets where project_id = ? and id in (?)`, [project.id, row.parent_id]) : [],
    sql.query<RelatedRow>(`select ${RELATED} from tickets where parent_id in (?) order by number`, [row.id]),
    sql.query<LabelRow>(
      'select tl.ticket_id, l.id, l.name, l.color from ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id in (?) order by l.name',
      [row.id],
    ),
    sql.query<CommentRow>('select id, content, author, created_at from comments where ticket_id = ? order by created_at, id', [row.id]),
    sql.query<ActivityRow>('select id, action, detail, actor, created_at from activity where ticket_id = ? order by created_at, id', [row.id]),
  ]);
  const byId = new Map(columns.map((c) => [c.id, c]));
  const key = (n: number) => `${project.key}-${n}`;
  const column = byId.get(row.column_id);
  const parent = parents[0];
  send(res, 200, {
    id: row.id,
    key: key(row.number),
    number: row.number,
    title: row.title,
    description: row.description,
    priority: row.priority,
    ticket_type: row.ticket_type,
    column: column?.name ?? null,
    board: column?.board_name ?? null,
    parent: parent ? { id: parent.id, key: key(parent.number), title: parent.title } : null,
    sub_tickets: subs.map((s) => ({
      id: s.id,
      key: key(s.number),
      title: s.title,
      column: byId.get(s.column_id)?.name ?? null,
      priority: s.priority,
      ticket_type: s.ticket_type,
    })),
    labels: labels.map((l) => ({ id: l.id, name: l.name, color: l.color })),
    assignee: row.assignee ? JSON.parse(row.assignee) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
    ai_summary: row.ai_summary,
    ai_summary_source: row.ai_summary_source,
    comments: comments.map((c) => ({ id: c.id, content: c.content, author: c.author, created_at: c.created_at })),
    activity: activity.map((a) => ({ id: a.id, action: a.action, detail: a.detail, actor: a.actor, created_at: a.created_at })),
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`Tickets baseline listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => sql.close().then(() => process.exit(0))));
