// `npx tsx bench/cpu-probe.ts webhook|ticket [seconds] [--cpu-prof]`: the service's and the baseline's CPU time per
// request on one scenario, measured back to back (figures a machine shared with other work does not inflate as it
// does wall time), to find where a ratio of `npm run bench` comes from.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSmsAdmin } from '../packages/sms/src/index.ts';
import { BASE_PATH } from '../packages/tickets/src/index.ts';
import { seedProject } from './tickets-seed.ts';
import { load, percentile, type LoadOptions } from './lib/load.ts';
import { profile, startProcess, startService, type RunningProcess } from './lib/process.ts';

const ROOT = join(import.meta.dirname, '..');
const [scenario = 'webhook', secondsArg = '5'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (process.argv.includes('--cpu-prof')) profile.dir = join(ROOT, 'bench/results/profiles', new Date().toISOString().replace(/[:.]/g, '-'));
const seconds = Number(secondsArg);

/** One side's request, as the benchmarks' load runs take it. */
type Probe = Omit<LoadOptions, 'connections' | 'durationSeconds'>;

async function measure(target: RunningProcess, request: Probe) {
  await load({ ...request, connections: 10, durationSeconds: 1 });
  const before = target.cpuMs();
  const run = await load({ ...request, connections: 10, durationSeconds: seconds });
  const cpu = target.cpuMs() - before;
  return {
    rps: Math.round(run.requests / seconds),
    p50: percentile(run.times, 50),
    p99: percentile(run.times, 99),
    cpuUsPerRequest: Math.round((cpu * 1000) / run.requests),
  };
}

async function webhook(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cpu-probe-'));
  const env = { DATA_DIR: dataDir };
  const admin = await openSmsAdmin(env);
  const { secretKey } = await admin.orgs.createOrganization('bench', 'Benchmark', new Date());
  const service = await startService('sms', { ...env, SMS_PORT: '0' });
  const baseline = await startProcess(join(ROOT, 'bench/baselines/sms-baseline.ts'), { BASELINE_SQLITE_FILE: join(dataDir, 'sms.db') });
  let counter = 0;
  const request = (url: string): Probe => ({
    url: `${url}/webhook`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-secret-key': secretKey },
    body: () =>
      JSON.stringify({
        event: 'sms.received',
        message: { from: '+15550001111', to: '+15552223333', body: `bench ${++counter}`, sim: 'sim1', external_id: `w-${counter}` },
      }),
  });
  await compareCpu(service, baseline, request);
  await service.stop();
  await baseline.stop();
}

async function ticket(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cpu-probe-'));
  const env = { DATA_DIR: dataDir, SWITCHBOARD_SECRET: 'benchmark-secret-0123456789' };
  const token = await seedProject(env, { key: 'BENCH', tickets: 10_000, autoSummary: false, realistic: false, target: 5002 });
  const service = await startService('tickets', { ...env, TICKETS_PORT: '0' });
  const baseline = await startProcess(join(ROOT, 'bench/baselines/tickets-baseline.ts'), { BASELINE_SQLITE_FILE: join(dataDir, 'tickets.db') });
  const request = (url: string): Probe => ({ url: `${url}${BASE_PATH}/tickets/BENCH-5002`, headers: { authorization: `Bearer ${token}` } });
  await compareCpu(service, baseline, request);
  await service.stop();
  await baseline.stop();
}

async function compareCpu(service: RunningProcess, baseline: RunningProcess, request: (url: string) => Probe): Promise<void> {
  for (let round = 0; round < 2; round++) {
    for (const [name, target] of [
      ['baseline', baseline],
      ['service', service],
    ] as const) {
      console.log(name, JSON.stringify(await measure(target, request(target.url))));
    }
  }
}

if (scenario === 'webhook') await webhook();
else if (scenario === 'ticket') await ticket();
else throw new Error(`unknown scenario ${scenario}`);
process.exit(0);
