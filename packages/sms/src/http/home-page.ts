import { FAVICON_PATH } from './favicon.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

// Plain HTML, CSS and a small script: no build step and nothing loaded from a CDN.
const SCRIPT = `
const $ = (id) => document.getElementById(id);
let sinceId = 0, timer = null, rows = [];
// What the send answer said about a message it queued (its warning: no gateway is configured), by message id.
const notes = new Map();
function creds() { return { org: $('org').value.trim(), key: $('key').value.trim() }; }
function headers() { return { 'Authorization': 'Bearer ' + creds().key }; }
function show(text, bad) { $('status').textContent = text; $('status').className = bad ? 'bad' : ''; }
function sent(text, kind) { $('sent').textContent = text; $('sent').className = kind || ''; }
function render() {
  const dir = $('direction').value, sim = $('sim').value.trim();
  const list = rows.filter((m) => (!dir || m.direction === dir) && (!sim || m.sim === sim || m.to === sim || m.from === sim));
  const body = $('messages');
  body.textContent = '';
  for (const m of list.slice().reverse()) {
    const tr = document.createElement('tr');
    for (const v of [m.id, m.direction === 'inbound' ? '\\u2190 in' : '\\u2192 out', m.sim || '', m.from, m.to, m.body, m.status + (m.error ? ' (' + m.error + ')' : ''), (m.received_at || m.sent_at || m.created_at).replace('T', ' ').slice(0, 19)]) {
      const td = document.createElement('td'); td.textContent = String(v); tr.appendChild(td);
    }
    // A message queued while no gateway was configured says so for as long as it waits.
    const note = m.status === 'queued' ? notes.get(m.id) : undefined;
    if (note) { const why = document.createElement('div'); why.className = 'note'; why.textContent = note; tr.children[6].appendChild(why); }
    body.appendChild(tr);
  }
  $('count').textContent = list.length + ' shown, ' + rows.length + ' loaded';
}
async function poll() {
  const { org } = creds();
  try {
    for (;;) {
      const res = await fetch('/messages/' + encodeURIComponent(org) + '?limit=500&since_id=' + sinceId, { headers: headers() });
      const data = await res.json();
      if (!res.ok) { show(typeof data.detail === 'string' ? data.detail : JSON.stringify(data.detail), true); stop(); return; }
      const byId = new Map(rows.map((m) => [m.id, m]));
      for (const m of data.messages) byId.set(m.id, m);
      rows = [...byId.values()].sort((a, b) => a.id - b.id);
      sinceId = data.next_since_id;
      if (!data.has_more) break;
    }
    show('Connected. Polling every 3 s (since_id=' + sinceId + ').');
    render();
  } catch (e) { show('Network error: ' + e.message, true); }
}
async function refreshOutbound() {
  // Outbound statuses change after they are listed: re-read the recent ones.
  const { org } = creds();
  const res = await fetch('/messages/' + encodeURIComponent(org) + '?direction=outbound&limit=1000&since_id=' + Math.max(0, sinceId - 1000), { headers: headers() });
  if (!res.ok) return;
  const data = await res.json();
  const byId = new Map(rows.map((m) => [m.id, m]));
  for (const m of data.messages) byId.set(m.id, m);
  rows = [...byId.values()].sort((a, b) => a.id - b.id);
  render();
}
function stop() { if (timer) clearInterval(timer); timer = null; }
$('connect').onclick = () => { stop(); rows = []; sinceId = 0; render(); poll(); timer = setInterval(() => { poll(); refreshOutbound(); }, 3000); };
$('direction').onchange = render;
$('sim').oninput = render;
$('send').onsubmit = async (event) => {
  event.preventDefault();
  const { org } = creds();
  const payload = { to: $('to').value, body: $('text').value };
  if ($('fromsim').value.trim()) payload.sim = $('fromsim').value.trim();
  const res = await fetch('/send/' + encodeURIComponent(org), { method: 'POST', headers: { ...headers(), 'Content-Type': 'application/json' }, body: JSON.stringify(payload) });
  const data = await res.json();
  if (!res.ok) { sent('Send failed: ' + (typeof data.detail === 'string' ? data.detail : data.detail.map((d) => d.loc.join('.') + ': ' + d.msg).join('; ')), 'bad'); return; }
  if (data.warning) notes.set(data.id, data.warning);
  // Beside the form, not in the inbox's status line, which each poll rewrites.
  sent('Queued message ' + data.id + (data.warning ? ': ' + data.warning : '.'), data.warning ? 'warn' : '');
  $('text').value = '';
  poll();
};
`;

/** GET /: what the service is, its endpoints with examples, and a small working inbox. */
export function homePage(base: string): string {
  const b = escapeHtml(base);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchboard SMS message store</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1rem 1.5rem;color:#1d2330}
h1{margin-bottom:0}code,pre{font:13px ui-monospace,monospace;background:#f2f4f8;border-radius:4px}pre{padding:.6rem;overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:14px}td,th{border-bottom:1px solid #dde;padding:4px 6px;text-align:left;vertical-align:top}
fieldset{border:1px solid #ccd;border-radius:6px;margin:.6rem 0}input,select,button,textarea{font:inherit;padding:3px 6px}
#status,#sent{margin:.4rem 0;color:#245}#status.bad,#sent.bad{color:#a11}#sent.warn,.note{color:#8a4b00}.note{font-size:13px}.muted{color:#667}
</style></head><body>
<h1>Switchboard SMS message store</h1>
<p class="muted">A multi-tenant SMS inbox and outbox. Gateways post received messages and delivery reports to <code>POST /webhook</code>; clients read them with a <code>since_id</code> cursor and send with <code>POST /send/{org_id}</code>, delivered durably with retries. Machine-readable: <a href="/llms.txt">/llms.txt</a>, <a href="/openapi.json">/openapi.json</a>, <a href="/docs">/docs</a>.</p>
<p>Members of an organization: <a href="/login">sign in to the console</a> (conversations, live delivery states, gateway settings, SIMs and keys).</p>

<h2>Inbox</h2>
<fieldset><legend>Organization</legend>
<label>org id <input id="org" size="16" autocomplete="username"></label>
<label>secret key <input id="key" type="password" size="50" autocomplete="current-password"></label>
<button id="connect">Connect</button></fieldset>
<div id="status" role="status">Enter an organization id and one of its secret keys.</div>
<fieldset><legend>Filter</legend>
<label>direction <select id="direction"><option value="">all</option><option value="inbound">inbound</option><option value="outbound">outbound</option></select></label>
<label>SIM or number <input id="sim" size="16"></label> <span id="count" class="muted"></span></fieldset>
<form id="send"><fieldset><legend>Send</legend>
<label>to <input id="to" placeholder="+15551234567" required size="16"></label>
<label>from SIM <input id="fromsim" placeholder="sim1 (optional)" size="12"></label>
<label>text <input id="text" required size="50" maxlength="1600"></label>
<button>Send</button>
<div id="sent" role="status"></div></fieldset></form>
<table><thead><tr><th>id</th><th>dir</th><th>SIM</th><th>from</th><th>to</th><th>text</th><th>status</th><th>time (UTC)</th></tr></thead><tbody id="messages"></tbody></table>

<h2>Endpoints</h2>
<p>Authentication: the organization's secret key (<code>sms_…</code>) in the path, as <code>Authorization: Bearer KEY</code>, as <code>X-Secret-Key: KEY</code>, or (webhook only) as <code>?key=KEY</code>. Every failure is <code>401 {"detail": "Invalid credentials"}</code>.</p>
<h3>GET /messages/{org_id}/{secret_key} · GET /messages/{org_id}</h3>
<p>Messages with <code>id &gt; since_id</code>, ascending. Query: <code>limit</code> (1–1000, default 100), <code>since_id</code> (default 0), <code>direction</code> (<code>inbound</code>|<code>outbound</code>), <code>sim</code> (SIM id or its number). Answer <code>{"messages", "count", "next_since_id", "has_more"}</code>: pass <code>next_since_id</code> back to see each message exactly once.</p>
<pre>curl '${b}/messages/ORG_ID/SECRET_KEY?since_id=0&amp;limit=100'
curl -H 'Authorization: Bearer SECRET_KEY' '${b}/messages/ORG_ID?direction=inbound'</pre>
<h3>GET /sims/{org_id}/{secret_key}</h3>
<p>The SIMs seen in messages, with labels, numbers and counts.</p>
<pre>curl '${b}/sims/ORG_ID/SECRET_KEY'</pre>
<h3>POST /send/{org_id}</h3>
<p>Body <code>{"to": "+15551234567", "body": "text", "sim": "sim1"}</code>; optional <code>Idempotency-Key</code> header (24 hours). Answers the queued message; the organization's gateway driver (Android app, httpSMS, Twilio, webhook) delivers it with retries.</p>
<pre>curl -X POST -H 'Authorization: Bearer SECRET_KEY' -H 'Content-Type: application/json' \\
  -d '{"to": "+15551234567", "body": "Hello"}' '${b}/send/ORG_ID'</pre>
<h3>POST /webhook</h3>
<p>Native JSON (single, <code>{"events": [...]}</code> batches, delivery reports), SMS Gateway for Android, httpSMS (CloudEvents) and Twilio (form) formats; idempotent on the gateway's event id. Answer <code>{"status": "ok", "stored": [ids], "duplicates": N, "updated": N}</code>.</p>
<pre>curl -X POST '${b}/webhook?key=SECRET_KEY' -H 'Content-Type: application/json' \\
  -d '{"event": "sms.received", "message": {"from": "+15550001111", "to": "+15552223333", "body": "Hi", "sim": "sim1"}}'</pre>
<h3>GET /health · GET /metrics · GET /openapi.json · GET /docs · GET /llms.txt</h3>
<p>Health (<code>{"status": "ok", "version": "1.0", "database": "ok"}</code>, 503 when the database does not answer), Prometheus metrics, the OpenAPI description and its viewer, and a plain-text guide for LLM agents.</p>
<script>${SCRIPT}</script>
</body></html>`;
}
