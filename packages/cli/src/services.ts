import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env } from '@switchboard/core';

/** What a service prints on the deployment's first start. */
export interface BootstrapResult {
  /** Heading, e.g. "SMS message store". */
  title: string;
  /** Credentials and copy-paste examples, one per line. */
  lines: string[];
}

/** What `npm start` needs of a service package. */
export interface ServiceModule {
  bootstrap(env: Env): Promise<BootstrapResult>;
}

/** The repository's packages folder. */
export const PACKAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Services in start order; a service whose package is not there yet is skipped. */
export const SERVICE_NAMES = ['sms', 'flows', 'tickets'] as const;

/**
 * Node options a service's process runs with (`npm start`, `npm run start:NAME`,
 * the benchmarks). Flows holds many long-lived streams: a young generation
 * capped at 2 × 8 MiB instead of V8's 2 × 16 MiB keeps 1,000 open streams
 * under 200 MB (`npm run bench`: peak 191 → 165 MiB, same throughput). Opening thousands of streams at once
 * promotes much of what they allocate meanwhile; V8 then grows the old generation by a factor it picks from its
 * speed (up to 4×) and the peak overshoots what the open streams hold: a factor of 1.35 keeps the peak of 10,000
 * streams opening near what they hold (bench/streams-probe.ts 10000: peak 702-741 → 528-544 MiB).
 */
const SERVICE_NODE_OPTIONS: Partial<Record<string, string[]>> = {
  flows: ['--max-semi-space-size=8', '--heap-growing-percent=35'],
};

/**
 * Environment a service's process starts with (`npm start`, `npm run start:NAME`, deploy/, the benchmarks),
 * under what the operator sets. Flows holds thousands of sockets whose small buffers are allocated on the main
 * thread and freed as V8's and libuv's threads run: with glibc's default of up to 8 malloc arenas per core, the
 * freed memory stays spread over arenas and RSS grows with the stream count (bench/streams-probe.ts, 2,000 held
 * streams on this 2-core machine: 115-131 KiB per stream by default, 55 KiB with one arena); two arenas
 * keep it flat at no measurable CPU cost.
 */
const SERVICE_ENV: Partial<Record<string, Record<string, string>>> = {
  flows: { MALLOC_ARENA_MAX: '2' },
};

/** The environment variables a service's process is started with (see SERVICE_ENV). */
export function serviceEnv(name: string): Record<string, string> {
  return SERVICE_ENV[name] ?? {};
}

/** `VAR=value ` for each of the service's environment variables: the prefix of its command in a shell line (package.json, Procfile). */
export function serviceEnvPrefix(name: string): string {
  return Object.entries(serviceEnv(name))
    .map(([key, value]) => `${key}=${value} `)
    .join('');
}

/** The node options of a service (see SERVICE_NODE_OPTIONS), before its bundle on the command line. */
export function serviceNodeOptions(name: string): string[] {
  return SERVICE_NODE_OPTIONS[name] ?? [];
}

/** Path of a service's entry point. */
export function serviceMain(name: string): string {
  return join(PACKAGES_DIR, name, 'src', 'main.ts');
}

/** The services present in this checkout. */
export function presentServices(): string[] {
  return SERVICE_NAMES.filter((name) => existsSync(serviceMain(name)));
}

/** Loads a service package's public surface (its index.ts). */
export async function loadService(name: string): Promise<ServiceModule> {
  return (await import(join(PACKAGES_DIR, name, 'src', 'index.ts'))) as ServiceModule;
}
