import { listen, runMain } from '@switchboard/core';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { MCP_PATH } from './mcp/mcp-endpoint.ts';

await runMain(async () => {
  const config = loadConfig();
  const app = await buildApp(config);
  const url = await listen(app, config.host, config.port);
  process.stdout.write(`Ticket board listening on ${url} (MCP endpoint ${url}${MCP_PATH})\n`);
  return { close: () => app.close() };
});
