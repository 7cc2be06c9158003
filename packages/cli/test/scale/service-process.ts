import { spawn, type ChildProcess } from 'node:child_process';
import { buildServices } from '../../src/build.ts';
import { serviceEnv, serviceNodeOptions } from '../../src/services.ts';

/** A service running from its bundle with plain node, as `npm start` runs it. */
export interface ServiceProcess {
  name: string;
  url: string;
  pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or the signal's name) when it ends. */
  exited: Promise<number | string>;
  /** Sends a signal (SIGTERM: a graceful stop; SIGKILL: a crash). */
  signal(name: NodeJS.Signals): void;
  /** Ends it if it still runs (SIGKILL) and waits for the exit. */
  kill(): Promise<void>;
}

const bundles = new Map<string, Promise<string>>();

/** The bundle of a service, built once per test file. */
export function serviceBundleOnce(name: string): Promise<string> {
  let bundle = bundles.get(name);
  if (!bundle) {
    bundle = buildServices([name]).then(([file]) => file);
    bundles.set(name, bundle);
  }
  return bundle;
}

/** Starts `node BUNDLE` of a service with `env` (port 0 unless given) and waits for its "listening on" line. */
export async function startServiceProcess(name: 'sms' | 'flows' | 'tickets', env: Record<string, string>): Promise<ServiceProcess> {
  const file = await serviceBundleOnce(name);
  const port = `${name.toUpperCase()}_PORT`;
  const child: ChildProcess = spawn(process.execPath, [...serviceNodeOptions(name), file], {
    env: { ...serviceEnv(name), ...process.env, LOG_LEVEL: 'warn', [port]: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\w.:]+)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`${name} exited with ${code} before listening:\n${output}`)));
  });
  return {
    name,
    url,
    pid: child.pid!,
    output: () => output,
    exited,
    signal: (signal) => void child.kill(signal),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
