import { localBaseUrl, type Env } from '@switchboard/core';
import { loadConfig } from './config.ts';
import { createProject, createToken, withTicketsStore } from './admin.ts';
import { MCP_PATH } from './mcp/mcp-endpoint.ts';
import { BASE_PATH } from './http/rest-routes.ts';
import { projectByKey } from './store/project-store.ts';

/** First start of the deployment: a demo project `DEMO` with a token, and the lines that show how to connect. */
export async function bootstrap(env: Env): Promise<{ title: string; lines: string[] }> {
  const config = loadConfig(env);
  const base = config.publicBaseUrl ?? localBaseUrl(config.host, config.port);
  const { key, token } = await withTicketsStore(env, async (db) => {
    let key = 'DEMO';
    // A deployment whose platform database was reset may still hold DEMO: pick the next free key.
    for (
      let n = 2;
      await projectByKey(db, key).then(
        () => true,
        () => false,
      );
      n++
    )
      key = `DEMO${n}`;
    await createProject(db, { key, name: 'Demo project', description: 'Created on the first start of Switchboard.' });
    return { key, ...(await createToken(db, key, 'bootstrap')) };
  });
  return {
    title: 'Ticket board (MCP + REST)',
    lines: [
      `project key: ${key}`,
      `token:       ${token}`,
      `curl -H "Authorization: Bearer ${token}" ${base}${BASE_PATH}/status`,
      `claude mcp add --transport http switchboard-tickets ${base}${MCP_PATH} --header "Authorization: Bearer ${token}"`,
      `board in the browser: ${base}/ (sign in as the admin user above)`,
    ],
  };
}
