import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { buildServices } from '../../packages/cli/src/build.ts';
import { serviceEnv, serviceNodeOptions } from '../../packages/cli/src/services.ts';

/** A service (or baseline) started as a child process for a benchmark. */
export interface RunningProcess {
  child: ChildProcess;
  /** The base URL the process printed. */
  url: string;
  /** The https: URL printed before it on the same line, if any (the fake upstream with FAKE_LLM_TLS). */
  tlsUrl?: string;
  /** Peak resident set size so far, in MiB (VmHWM). */
  peakRssMiB(): number;
  /** Current resident set size, in MiB (VmRSS). */
  rssMiB(): number;
  /** CPU time (user + system) used so far, in ms: a cost that a machine shared with other work does not inflate as it does wall time. */
  cpuMs(): number;
  /** Open file descriptors (sockets included), NaN when /proc cannot tell. */
  openFiles(): number;
  stop(): Promise<void>;
}

function statusField(pid: number, field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU time (user + system, /proc/PID/stat fields 14 and 15 in clock ticks of 10 ms) of a process so far, in ms. */
export function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Open file descriptors of a process (sockets included), NaN when /proc cannot tell. */
export function openFilesOf(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

/** Where `npm run bench -- --cpu-prof` has every started process write its V8 CPU profile (set by run.ts). */
export const profile: { dir?: string } = {};

/** Each service's bundle, built once per benchmark run (by the first startService of that service). */
const bundles = new Map<string, Promise<string>>();

/**
 * Starts a service as `npm start` runs it: its esbuild bundle
 * (packages/NAME/dist/main.mjs) with plain `node`, the service's environment
 * (MALLOC_ARENA_MAX for flows) and node options (and `extraNodeArgs`, e.g. `--heapsnapshot-signal=SIGUSR2` for a
 * probe), no tsx. See startProcess.
 */
export async function startService(name: string, env: Record<string, string>, extraNodeArgs: string[] = []): Promise<RunningProcess> {
  if (!bundles.has(name))
    bundles.set(
      name,
      buildServices([name]).then(([file]) => file),
    );
  return startNode(await bundles.get(name)!, [...serviceNodeOptions(name), ...extraNodeArgs], { ...serviceEnv(name), ...env });
}

/**
 * Starts `node --import tsx FILE` (a baseline, a fake upstream), waits for a
 * line containing `http://…`, and returns the URL (and an `https://…` URL printed before it). With a profile directory
 * set, the process runs under `--cpu-prof` and writes its profile there when
 * it stops.
 */
export async function startProcess(file: string, env: Record<string, string>): Promise<RunningProcess> {
  return startNode(file, ['--import', 'tsx'], env);
}

async function startNode(file: string, nodeArgs: string[], env: Record<string, string>): Promise<RunningProcess> {
  const profiling = profile.dir ? ['--cpu-prof', `--cpu-prof-dir=${profile.dir}`] : [];
  const child = spawn(process.execPath, [...profiling, ...nodeArgs, file], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tlsUrl: string | undefined;
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/[\w.[\]:-]+)/.exec(output);
      if (match) {
        tlsUrl = /(https:\/\/[\w.[\]:-]+)/.exec(output)?.[1];
        child.stdout!.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}:\n${output}`)));
    setTimeout(() => reject(new Error(`${file} did not print its URL in 60 s:\n${output}`)), 60_000).unref();
  });
  // Keep draining output so the child never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    child,
    url,
    tlsUrl,
    peakRssMiB: () => statusField(child.pid!, 'VmHWM'),
    rssMiB: () => statusField(child.pid!, 'VmRSS'),
    cpuMs: () => cpuMsOf(child.pid!),
    openFiles: () => openFilesOf(child.pid!),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
