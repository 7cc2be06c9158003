// The SMS console in Chromium (issue 25): the time from navigation to the first conversations of an inbox of
// 100,000 messages in 5,000 conversations, cold (a fresh browser context) and warm, what its first load sends,
// and the time from a webhook's answer to its message on an open console, posted to a second instance on
// PostgreSQL. Targets: < 1 s to the first conversations cold; webhook → message p99 < 250 ms.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { availableParallelism, loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { browserSkipReason, createAdmin, freshPage, launchBrowser, signIn } from './lib/browser.ts';
import { openSmsAdmin } from '../packages/sms/src/index.ts';
import { buildWebUi, webUiOutput } from '../packages/cli/src/web-build.ts';
import { startService, type RunningProcess } from './lib/process.ts';
import { openSql, type SqlClient } from './lib/sql.ts';
import { percentile } from './lib/load.ts';
import type { Row } from './lib/report.ts';
import type { BenchContext, Suite } from './context.ts';

const BIG = 'inboxui';
const LIVE = 'liveui';
const MESSAGES = 100_000;
const CONVERSATIONS = 5_000;
const EMAIL = 'bench-sms@example.com';

/**
 * 100,000 messages over 5,000 numbers (one in five sent, the rest received), written straight into the tables
 * as the service keeps them: each message with its conversation, one row per conversation with its counts.
 */
async function seedInbox(sql: SqlClient, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const now = new Date().toISOString();
  const peer = `'+1555' || (1000000 + i % ${CONVERSATIONS})`;
  const outbound = 'i % 5 = 0';
  const values = `'${BIG}', case when ${outbound} then 'outbound' else 'inbound' end, 'sim' || (i % 2 + 1),
    case when ${outbound} then '+15550199000' else ${peer} end, case when ${outbound} then ${peer} else '+15550199000' end,
    'Message number ' || i || ': the quick brown fox jumps over the lazy dog', case when ${outbound} then 'delivered' else 'received' end,
    1, 'native', 'seed-' || i, null, '${now}', null, null, '${now}', '${now}', ${peer}, 0`;
  const columns =
    'org_id, direction, sim, from_number, to_number, body, status, segments, gateway, external_id, error, received_at, sent_at, delivered_at, created_at, updated_at, peer, change_seq';
  const series =
    dialect === 'sqlite'
      ? `(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${MESSAGES}) SELECT i FROM n) AS s`
      : `generate_series(1, ${MESSAGES}) AS s(i)`;
  await sql.exec(`INSERT INTO messages (${columns}) SELECT ${values} FROM ${series}`);
  await sql.exec(`INSERT INTO conversations (org_id, peer, last_message_id, message_count, inbound_count, last_inbound_id)
    SELECT org_id, peer, max(id), count(*), sum(case when direction = 'inbound' then 1 else 0 end), max(case when direction = 'inbound' then id end)
    FROM messages WHERE org_id = '${BIG}' GROUP BY org_id, peer`);
  await sql.exec(dialect === 'sqlite' ? 'ANALYZE' : 'ANALYZE messages; ANALYZE conversations');
}

/** The organizations, their messages, and an admin; answers the live organization's key. */
async function seed(outer: BenchContext): Promise<string> {
  const admin = await openSmsAdmin(outer.env);
  let key: string;
  try {
    await admin.orgs.createOrganization(BIG, 'Inbox of 100,000', new Date());
    key = (await admin.orgs.createOrganization(LIVE, 'Live console', new Date())).secretKey;
  } finally {
    await admin.close();
  }
  const sql = outer.postgres
    ? openSql({ url: outer.postgres.url, schema: `${outer.postgres.prefix}_sms` })
    : openSql({ file: join(outer.env.DATA_DIR, 'sms.db') });
  try {
    await seedInbox(sql, outer.postgres ? 'postgres' : 'sqlite');
  } finally {
    await sql.close();
  }
  await createAdmin(outer.env, EMAIL);
  return key;
}

const firstConversation = (page: Page) => page.getByRole('list', { name: 'Conversations' }).getByRole('link').first();

/** Milliseconds from navigation start to the first frame with the first conversations drawn. */
async function timeToConversations(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  await firstConversation(page).waitFor({ timeout: 60_000 });
  return page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now()))));
}

/** JS and CSS the page loaded from /assets/ until the inbox showed, gzipped as a compressing proxy would send them. */
async function firstLoad(page: Page, url: string): Promise<{ kib: number; files: number }> {
  const files = new Set<string>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/assets/') && /\.(js|css)$/.test(path)) files.add(path);
  });
  await page.goto(url);
  await firstConversation(page).waitFor({ timeout: 60_000 });
  let bytes = 0;
  for (const file of files) {
    const path = join(webUiOutput('sms'), file);
    if (existsSync(path)) bytes += gzipSync(readFileSync(path)).length;
  }
  return { kib: bytes / 1024, files: files.size };
}

/** Posts one webhook at a time to `target`; answers the milliseconds from each answer to its message drawn in the open page's list. */
async function webhookLatencies(page: Page, target: string, key: string, count: number): Promise<number[]> {
  await page.evaluate(`(() => {
    window.__shown = (text) => new Promise((resolve) => {
      const check = () => {
        const list = document.querySelector('[aria-label="Conversations"]');
        if (list && list.textContent.includes(text)) { observer.disconnect(); resolve(Date.now()); return true; }
        return false;
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      check();
    });
  })()`);
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const body = `Live bench message ${i} ${Date.now()}`;
    const seen = page.evaluate(`window.__shown(${JSON.stringify(body)})`) as Promise<number>;
    const response = await fetch(`${target}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-secret-key': key },
      body: JSON.stringify({ event: 'sms.received', message: { from: `+1555200${String(i % 50).padStart(4, '0')}`, to: '+15550199000', body, sim: 'sim1' } }),
    });
    const answered = Date.now();
    if (response.status !== 200) throw new Error(`sms-ui: webhook answered ${response.status}`);
    latencies.push(Math.max(0, (await seen) - answered));
  }
  return latencies;
}

const row = (scenario: string, service: RunningProcess, p50: number, p99: number, requests: number, note: string, unit?: string): Row => ({
  scenario,
  unit,
  service: { requests, rps: 0, p50, p99, errors: 0, non2xx: 0, peakRssMiB: service.peakRssMiB() },
  note,
});

/** The sms-ui suite. */
export const benchSmsUi: Suite = async (outer: BenchContext) => {
  const started = performance.now();
  const log = (message: string) => outer.log(`sms-ui: ${message} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const missing = browserSkipReason();
  if (missing) {
    log(`skipped: ${missing}`);
    return [];
  }
  await buildWebUi('sms');
  log(`seeding ${MESSAGES.toLocaleString('en')} messages in ${CONVERSATIONS.toLocaleString('en')} conversations`);
  const key = await seed(outer);
  const env = { ...outer.env, SMS_PORT: '0', SMS_WORKER_INTERVAL_MS: '0' };
  const service = await startService('sms', env);
  // On PostgreSQL the webhooks go to a second instance: the page learns of them through the database's notifications.
  const second = outer.postgres ? await startService('sms', env) : undefined;
  const browser = await launchBrowser();
  const rows: Row[] = [];
  try {
    const base = service.url;
    const cookie = await signIn(base, EMAIL, 'sms-ui');
    const inbox = `${base}/orgs/${BIG}/inbox`;
    const loadPage = await freshPage(browser, base, cookie);
    const load = await firstLoad(loadPage, inbox);
    await loadPage.context().close();
    rows.push(
      row(
        'sms UI first load: inbox (JS+CSS gzipped)',
        service,
        NaN,
        NaN,
        load.files,
        `${load.kib.toFixed(1)} KiB in ${load.files} files`,
        'gzip -6 of the files the page loaded',
      ),
    );

    const runs = outer.quick ? 3 : 7;
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      const page = await freshPage(browser, base, cookie);
      cold.push(await timeToConversations(page, inbox));
      warm.push(await timeToConversations(page, inbox));
      await page.context().close();
    }
    rows.push(
      row(
        `sms UI inbox of ${MESSAGES.toLocaleString('en')} messages in ${CONVERSATIONS.toLocaleString('en')} conversations: navigation to the first conversations (cold cache)`,
        service,
        percentile(cold, 50),
        Math.max(...cold),
        runs,
        `navigation start → first frame with the first conversations drawn, a fresh browser context each time; warm cache p50 ${percentile(warm, 50).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms (target cold < 1 s)`,
        `${runs} navigations; p99 column = slowest`,
      ),
    );
    log(
      `first conversations: cold p50 ${percentile(cold, 50).toFixed(0)} ms (max ${Math.max(...cold).toFixed(0)}), warm p50 ${percentile(warm, 50).toFixed(0)} ms`,
    );

    const livePage = await freshPage(browser, base, cookie);
    await livePage.goto(`${base}/orgs/${LIVE}/inbox`);
    await livePage
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor({ timeout: 15_000 });
    const count = outer.quick ? 40 : 200;
    const latencies = await webhookLatencies(livePage, (second ?? service).url, key, count);
    await livePage.context().close();
    rows.push(
      row(
        `sms UI live: webhook answer → message on an open console${second ? ' (two instances)' : ''}`,
        service,
        percentile(latencies, 50),
        percentile(latencies, 99),
        count,
        `${count} webhooks, one at a time${second ? ', posted to a second instance than the one serving the page' : ''}; max ${Math.max(...latencies)} ms (target p99 < 250 ms)`,
        'ms from the webhook answer to the message in the conversation list',
      ),
    );
    log(`webhook → console: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`);
    for (const r of rows) r.note = `${r.note}; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
  } finally {
    await browser.close();
    await service.stop();
    await second?.stop();
  }
  return rows;
};
