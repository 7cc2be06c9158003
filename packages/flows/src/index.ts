/** Public surface of the flow-execution service. */
import type { App } from '@switchboard/core';
import type { FlowsConfig } from './config.ts';
import type { BuildOptions } from './app.ts';

/** Builds the service (see app.ts); loaded lazily so that the CLI does not pay for the HTTP and AI SDK modules. */
export async function buildApp(config: FlowsConfig, options: BuildOptions = {}): Promise<App> {
  return (await import('./app.ts')).buildApp(config, options);
}
export type { BuildOptions } from './app.ts';
export { loadConfig, type FlowsConfig } from './config.ts';
export { bootstrap, DEMO_ORG } from './bootstrap.ts';
export { openFlowsStores, type FlowsStores } from './stores.ts';
export { TOKEN_SCOPES, PROVIDER_KINDS, type TokenScope, type ProviderKind } from './store/org-store.ts';
export { validateDefinition } from './domain/flow-validation.ts';
export type { FlowDefinition } from './domain/flow-definition.ts';
