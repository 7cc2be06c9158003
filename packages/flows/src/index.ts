/** Public surface of the flow-execution service. */
export { buildApp } from './app.ts';
export { loadConfig, type FlowsConfig } from './config.ts';
export { bootstrap, DEMO_ORG } from './bootstrap.ts';
export { openFlowsStores, type FlowsStores } from './stores.ts';
export { TOKEN_SCOPES, PROVIDER_KINDS, type TokenScope, type ProviderKind } from './store/org-store.ts';
export { validateDefinition } from './domain/flow-validation.ts';
export type { FlowDefinition } from './domain/flow-definition.ts';
