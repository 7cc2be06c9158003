/** Public surface of the ticket board: the app, its configuration, bootstrap and the administration the CLI uses. */
export { buildApp, type BuildOptions } from './app.ts';
export { loadConfig, type TicketsConfig } from './config.ts';
export { bootstrap } from './bootstrap.ts';
export { createLabel, createProject, createToken, listProjectTokens, revokeProjectToken, setProject, withTicketsStore } from './admin.ts';
export { BASE_PATH } from './http/rest-routes.ts';
export { MCP_PATH } from './mcp/mcp-endpoint.ts';
export { MCP_INSTRUCTIONS } from './tools/instructions.ts';
export { TOOLS } from './tools/catalogue.ts';
