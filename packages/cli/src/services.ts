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
