import { gracefulStop, listen, runMain } from '@switchboard/core';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

await runMain(async () => {
  const config = loadConfig();
  const app = await buildApp(config);
  const url = await listen(app, config.host, config.port);
  process.stdout.write(`Flow execution service listening on ${url}\n`);
  // SIGTERM: /health 503 and no new connections at once, work in flight gets SHUTDOWN_GRACE_MS to finish.
  return gracefulStop(app, config.shutdownGraceMs);
});
