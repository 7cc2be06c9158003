import { spawn, type ChildProcess } from 'node:child_process';
import { ConfigError, loadPlatformConfig, type ServiceName } from '@switchboard/core';
import { bootstrapOnce, formatBootstrap } from './bootstrap.ts';
import { BuildError, buildServices } from './build.ts';
import { presentServices, serviceNodeOptions } from './services.ts';
import { buildWebUis } from './web-build.ts';

/**
 * `npm start`: validates the configuration, bundles the services with esbuild,
 * builds the web UIs whose sources changed (Vite),
 * bootstraps the first start, then runs every service's bundle with plain
 * `node` as its own process and stops them all together.
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
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    // Each service drains for up to SHUTDOWN_GRACE_MS, then closes; past that and a margin, stop waiting.
    setTimeout(() => process.exit(code), graceMs + 6_000).unref();
    Promise.all(children.map((child) => new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done))))).then(() =>
      process.exit(code),
    );
  };
  for (const [index, name] of services.entries()) {
    const child = spawn(process.execPath, [...serviceNodeOptions(name), bundles[index]], { stdio: 'inherit', env: process.env });
    child.on('exit', (code) => {
      if (!stopping) {
        process.stderr.write(`${name} service exited with code ${code}; stopping the others\n`);
        stopAll(code || 1);
      }
    });
    children.push(child);
  }
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
}

await main();
