import { spawn, type ChildProcess } from 'node:child_process';
import { ConfigError, loadPlatformConfig, type ServiceName } from '@switchboard/core';
import { bootstrapOnce, formatBootstrap } from './bootstrap.ts';
import { BuildError, buildServices } from './build.ts';
import { presentServices, serviceEnv, serviceNodeOptions } from './services.ts';
import { buildWebUis } from './web-build.ts';

/** Times a service may die within a minute and be started again before the launcher gives up. */
const RESTARTS_PER_MINUTE = 3;
/** Wait before the first restart of a service that died; doubled for each recent restart. */
const RESTART_DELAY_MS = 500;

/**
 * `npm start`: validates the configuration, bundles the services with esbuild,
 * builds the web UIs whose sources changed (Vite),
 * bootstraps the first start, then runs every service's bundle with plain
 * `node` as its own process, starts again one that dies, and stops them all
 * together (SIGINT, SIGTERM).
 */
async function main(): Promise<void> {
  const services = presentServices();
  let bundles: string[];
  let graceMs = 0;
  try {
    for (const name of services) graceMs = loadPlatformConfig(name as ServiceName).shutdownGraceMs;
    bundles = await buildServices(services);
    // The UIs are built only when their sources changed: a second start does not rebuild them.
    const builtUis = await buildWebUis(services);
    if (builtUis.length) process.stdout.write(`built the web UI of ${builtUis.join(', ')}\n`);
    const first = await bootstrapOnce(process.env, services);
    if (first) process.stdout.write(formatBootstrap(first));
  } catch (error) {
    const message =
      error instanceof ConfigError
        ? `configuration error: ${error.message}`
        : error instanceof BuildError
          ? error.message
          : `failed to start: ${(error as Error).message}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }

  const children: ChildProcess[] = [];
  let stopping = false;
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    // Each service drains for up to SHUTDOWN_GRACE_MS, then closes; past that and a margin, stop waiting.
    setTimeout(() => process.exit(code), graceMs + 6_000).unref();
    // Not awaited: stopAll runs from signal and exit handlers; the process exits once every child has (these promises never reject).
    void Promise.all(
      children.map((child) => new Promise((done) => (child.exitCode !== null || child.signalCode !== null ? done(null) : child.once('exit', done)))),
    ).then(() => process.exit(code));
  };
  // A service that dies on its own (a crash, the OOM killer) is started again and the others keep running; one
  // that keeps dying (RESTARTS_PER_MINUTE times within a minute: a broken build, a port taken) stops everything.
  const restarts = new Map<string, number[]>();
  const start = (index: number, name: string) => {
    const child = spawn(process.execPath, [...serviceNodeOptions(name), bundles[index]], { stdio: 'inherit', env: { ...serviceEnv(name), ...process.env } });
    children[index] = child;
    child.on('exit', (code, signal) => {
      if (stopping) return;
      const now = Date.now();
      const recent = (restarts.get(name) ?? []).filter((at) => now - at < 60_000);
      if (recent.length >= RESTARTS_PER_MINUTE) {
        process.stderr.write(
          `${name} service exited with ${signal ?? `code ${code}`} again (${recent.length + 1} times within a minute); stopping the others\n`,
        );
        stopAll(code || 1);
        return;
      }
      restarts.set(name, [...recent, now]);
      const delay = RESTART_DELAY_MS * 2 ** recent.length;
      process.stderr.write(`${name} service exited with ${signal ?? `code ${code}`}; starting it again in ${delay} ms\n`);
      setTimeout(() => {
        if (!stopping) start(index, name);
      }, delay);
    });
  };
  for (const [index, name] of services.entries()) start(index, name);
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
}

await main();
