import { listen, runMain } from '@switchboard/core';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

await runMain(async () => {
  const config = loadConfig();
  const app = await buildApp(config);
  const url = await listen(app, config.host, config.port);
  process.stdout.write(`SMS message store listening on ${url}\n`);
  return { close: () => app.close() };
});
