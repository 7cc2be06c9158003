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
 * under 200 MB (`npm run bench`: peak 191 → 165 MiB, same throughput).
 */
const SERVICE_NODE_OPTIONS: Partial<Record<string, string[]>> = {
  flows: ['--max-semi-space-size=8'],
};

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
