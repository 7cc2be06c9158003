// `npm run bench -- --only scale` with DATABASE_URL: one and two instances of each service on one PostgreSQL,
// both behind nginx with the configuration of docs/deploy.md (packages/cli/src/deploy/nginx-config.ts), so the
// only difference between the two rows of a scenario is the second instance. docs/scaling.md reads these figures.
import { join } from 'node:path';
import { openSmsAdmin } from '../packages/sms/src/index.ts';
import { loadConfig as loadFlowsConfig, openFlowsStores } from '../packages/flows/src/index.ts';
import { NGINX, startNginx, type RunningNginx } from '../packages/cli/test/scale/nginx.ts';
import { compare, warnOnFailures, type LoadOptions } from './lib/load.ts';
import { startProcess, startService, type RunningProcess } from './lib/process.ts';
import { seedProject } from './tickets-seed.ts';
import type { Row } from './lib/report.ts';
import type { BenchContext, Suite } from './context.ts';

const ROOT = join(import.meta.dirname, '..');

/** N instances of a service behind nginx, seen as one process by the load helpers (RSS summed). */
async function cluster(
  name: 'sms' | 'flows' | 'tickets',
  count: number,
  env: Record<string, string>,
): Promise<{ front: RunningProcess; stop(): Promise<void> }> {
  const instances: RunningProcess[] = [];
  for (let i = 0; i < count; i++) instances.push(await startService(name, { ...env, [`${name.toUpperCase()}_PORT`]: '0', TRUST_PROXY: '127.0.0.1' }));
  const nginx: RunningNginx = await startNginx({ [name]: instances.map((instance) => instance.url.replace('http://', '')) });
  const sum = (read: (p: RunningProcess) => number) => Math.round(instances.reduce((total, p) => total + read(p), 0) * 10) / 10;
  return {
    front: {
      child: instances[0].child,
      url: nginx.urls[name]!,
      peakRssMiB: () => sum((p) => p.peakRssMiB()),
      rssMiB: () => sum((p) => p.rssMiB()),
      cpuMs: () => sum((p) => p.cpuMs()),
      openFiles: () => sum((p) => p.openFiles()),
      stop: async () => undefined,
    },
    async stop() {
      await nginx.close();
      for (const instance of instances) await instance.stop();
    },
  };
}

/** Measures `request` against 1 and then 2 instances; one row each. */
async function oneAndTwo(
  context: BenchContext,
  name: 'sms' | 'flows' | 'tickets',
  scenario: string,
  env: Record<string, string>,
  request: (base: string) => Omit<LoadOptions, 'connections' | 'durationSeconds'>,
  note: (rps: number) => string = () => '',
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const count of [1, 2]) {
    const running = await cluster(name, count, env);
    try {
      const result = await compare(context, running.front, undefined, request);
      warnOnFailures(context, `${scenario} × ${count}`, result);
      rows.push({ scenario: `${scenario}, ${count} instance${count > 1 ? 's' : ''} behind nginx`, service: result.service, note: note(result.service.rps) });
    } finally {
      await running.stop();
    }
  }
  return rows;
}

/** SMS ingest and listing (one organization), tickets creation (one project), and a one-LLM-node flow run, each on 1 and 2 instances. */
export const benchScale: Suite = async (context) => {
  if (!context.postgres) {
    context.log('scale: skipped (needs DATABASE_URL: several instances share one PostgreSQL)');
    return [];
  }
  if (!NGINX) {
    context.log('scale: skipped (nginx is not installed)');
    return [];
  }
  const rows: Row[] = [];
  const env = { ...context.env, SMS_WORKER_INTERVAL_MS: '0', TICKETS_SUMMARY_WORKER: 'off', FLOWS_RATE_LIMIT: '1000000000/m' };

  const admin = await openSmsAdmin(context.env);
  let key: string;
  try {
    key = (await admin.orgs.createOrganization('scale0', 'Scale', new Date())).secretKey;
  } finally {
    await admin.close();
  }
  let counter = 0;
  const webhook = (base: string) => ({
    url: `${base}/webhook`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'x-secret-key': key },
    body: () => {
      counter += 1;
      return JSON.stringify({ event: 'sms.received', message: { from: '+15550001111', to: '+15552223333', body: `scale ${counter}`, sim: 'sim1' } });
    },
  });
  context.log('scale: sms webhook ingest');
  rows.push(...(await oneAndTwo(context, 'sms', 'sms POST /webhook (1 msg, one organization)', env, webhook, (rps) => `${rps} msgs/s`)));
  context.log('scale: sms listing');
  rows.push(...(await oneAndTwo(context, 'sms', 'sms GET /messages?limit=100', env, (base) => ({ url: `${base}/messages/scale0/${key}?limit=100` }))));

  context.log('scale: tickets create_ticket');
  const token = await seedProject(context.env, { key: 'SCALE', tickets: 100, autoSummary: false, realistic: false });
  rows.push(
    ...(await oneAndTwo(
      context,
      'tickets',
      'tickets POST /tickets (one project)',
      env,
      (base) => ({
        url: `${base}/api/mcp/v1/tickets`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ title: 'Scale-out ticket' }),
      }),
      (rps) => `${rps} tickets/s`,
    )),
  );

  context.log('scale: flows run');
  const upstream = await startProcess(join(ROOT, 'bench/fakes/fake-llm.ts'), {});
  try {
    const stores = await openFlowsStores(loadFlowsConfig(context.env));
    let runToken: string;
    try {
      const org = await stores.orgs.createOrg('scale', 'Scale');
      runToken = (await stores.orgs.createToken(org.id, { name: 'bench', scope: 'run' })).token;
      await stores.orgs.setProvider(org.id, { name: 'fake', kind: 'openai-compatible', baseUrl: `${upstream.url}/v1` });
      await stores.admin.save((await stores.orgs.findOrg('scale'))!, {
        name: 'Scale',
        slug: 'scale',
        nodes: [
          { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
          { id: 'answer', type: 'llm', data: { provider: 'fake', model: 'bench', prompt: '{{input.question}}' } },
          { id: 'output', type: 'output', data: { format: 'chat_completion' } },
        ],
        edges: [
          { from: 'input', to: 'answer' },
          { from: 'answer', to: 'output' },
        ],
      });
    } finally {
      await stores.close();
    }
    rows.push(
      ...(await oneAndTwo(context, 'flows', 'flows POST /run (1 llm node, fake upstream)', env, (base) => ({
        url: `${base}/api/llm/scale/flows/scale/run`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${runToken}` },
        body: JSON.stringify({ input: { question: 'What does the fox do?' } }),
      }))),
    );
  } finally {
    await upstream.stop();
  }
  return rows;
};
