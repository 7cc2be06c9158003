// OAuth across instances (issue 23): two ticket boards and two flow services on one PostgreSQL, the boards
// behind nginx. Codes, grants and tokens live in the platform database, so a grant made on one instance works
// on the other and a revocation on one is refused on the other at the very next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MembershipStore, UserStore, listen, openPlatformDatabase, type App } from '@switchboard/core';
import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import { REDIRECT_URI, authorizationUrl, consent, discoverAndRegister, refresh, signInClient, tokenRequest } from '@switchboard/core/testing/oauth';
import { buildApp as buildFlows, loadConfig as loadFlowsConfig, openFlowsStores } from '@switchboard/flows';
import { buildApp as buildTickets, createProject, loadConfig as loadTicketsConfig, withTicketsStore } from '@switchboard/tickets';
import { NGINX, startNginx, type RunningNginx } from './nginx.ts';
import { GREETER_FLOW } from '../../../flows/test/helpers/greeter-flow.ts';

const postgres = process.env.TEST_DATABASE_URL;

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com', password: 'ada-password-1' }),
  });
  expect(response.status).toBe(200);
  return response.headers.get('set-cookie')!.split(';')[0];
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.skipIf(!postgres || !NGINX)('OAuth grants across instances on one PostgreSQL', () => {
  let database: TestDatabase;
  let nginx: RunningNginx;
  const apps: App[] = [];
  const boards: string[] = [];
  const flows: string[] = [];
  let cookie = '';

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const env = { ...database.env, LOG_LEVEL: 'silent', TICKETS_SUMMARY_WORKER: 'off', TRUST_PROXY: '127.0.0.1' };
    await withTicketsStore(env, (db) => createProject(db, { key: 'DUO', name: 'Duo' }));
    const stores = await openFlowsStores(loadFlowsConfig(env));
    try {
      const org = await stores.orgs.createOrg('acme', 'Acme');
      await stores.admin.save(await stores.orgs.requireOrg('acme'), GREETER_FLOW);
      expect(org.code).toBe('acme');
    } finally {
      await stores.close();
    }
    const platform = await openPlatformDatabase(env);
    try {
      const { user } = await new UserStore(platform.db).create({ email: 'ada@example.com', password: 'ada-password-1' });
      await new MembershipStore(platform.db).add('tickets', 'DUO', user.id);
      await new MembershipStore(platform.db).add('flows', 'acme', user.id);
    } finally {
      await platform.close();
    }
    for (const _ of [0, 1]) {
      const board = await buildTickets(loadTicketsConfig(env));
      apps.push(board);
      boards.push(await listen(board, '127.0.0.1', 0));
      const service = await buildFlows(loadFlowsConfig(env));
      apps.push(service);
      flows.push(await listen(service, '127.0.0.1', 0));
    }
    nginx = await startNginx({ tickets: boards.map((url) => url.replace('http://', '')) });
    cookie = await signIn(boards[0]);
  });
  afterAll(async () => {
    await nginx?.close();
    for (const app of apps) {
      app.server.closeAllConnections();
      await app.close();
    }
    await database?.cleanup();
  });

  it('signs a client in through nginx with the SDK, and its token works on both board instances over MCP and REST', async () => {
    const front = nginx.urls.tickets!;
    const { setup, tokens } = await signInClient(`${front}/api/mcp/v1/mcp`, cookie, { scopeKey: 'DUO', access: 'write' });
    expect(setup.metadata.issuer).toBe(front);
    for (const base of boards) {
      const client = new Client({ name: 'agent', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/v1/mcp`), { requestInit: { headers: bearer(tokens.access_token) } }));
      expect((await client.listTools()).tools.some((tool) => tool.name === 'create_ticket')).toBe(true);
      await client.close();
      const created = await fetch(`${base}/api/mcp/v1/tickets`, {
        method: 'POST',
        headers: { ...bearer(tokens.access_token), 'content-type': 'application/json' },
        body: JSON.stringify({ title: `From ${base}` }),
      });
      expect(created.status).toBe(201);
      const ticket = await (await fetch(`${base}/api/mcp/v1/tickets/${(await created.json()).key}`, { headers: bearer(tokens.access_token) })).json();
      expect(ticket.activity[0].actor).toBe('user:ada@example.com via Test Agent');
    }
  });

  it('redeems on one instance a code consented on the other, once: the replay on the first revokes the grant everywhere', async () => {
    const setup = await discoverAndRegister(`${boards[0]}/api/mcp/v1/mcp`);
    const { url, codeVerifier } = await authorizationUrl(setup);
    const { params } = await consent(url, cookie, { scopeKey: 'DUO', access: 'read' });
    const form = {
      grant_type: 'authorization_code',
      code: params.code,
      code_verifier: codeVerifier,
      client_id: setup.client.client_id,
      redirect_uri: REDIRECT_URI,
    };
    const redeemed = await tokenRequest(boards[1], form);
    expect(redeemed.status).toBe(200);
    expect((await fetch(`${boards[0]}/api/mcp/v1/labels`, { headers: bearer(redeemed.body.access_token!) })).status).toBe(200);
    const replay = await tokenRequest(boards[0], form);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await fetch(`${boards[1]}/api/mcp/v1/labels`, { headers: bearer(redeemed.body.access_token!) })).status).toBe(401);
  });

  it('refuses on one instance, at the next request, a grant revoked on the other; a used refresh token replayed elsewhere revokes its grant', async () => {
    const { setup, tokens } = await signInClient(`${boards[0]}/api/mcp/v1/mcp`, cookie, { scopeKey: 'DUO', access: 'read' });
    expect((await fetch(`${boards[1]}/api/mcp/v1/labels`, { headers: bearer(tokens.access_token) })).status).toBe(200);
    const listed = await (await fetch(`${boards[1]}/api/projects/DUO/oauth-grants`, { headers: { cookie } })).json();
    const grant = listed.grants.find((g: { client_id: string }) => g.client_id === setup.client.client_id);
    const revoked = await fetch(`${boards[0]}/api/projects/DUO/oauth-grants/${grant.id}`, { method: 'DELETE', headers: { cookie, origin: boards[0] } });
    expect(revoked.status).toBe(200);
    expect((await fetch(`${boards[1]}/api/mcp/v1/labels`, { headers: bearer(tokens.access_token) })).status).toBe(401);
    expect(
      (await tokenRequest(boards[1], { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: setup.client.client_id })).body.error,
    ).toBe('invalid_grant');

    const other = await signInClient(`${boards[1]}/api/mcp/v1/mcp`, cookie, { scopeKey: 'DUO', access: 'read' });
    const rotated = await refresh({ ...other.setup, authorizationServer: boards[0] }, other.tokens.refresh_token!);
    expect((await fetch(`${boards[1]}/api/mcp/v1/labels`, { headers: bearer(rotated.access_token) })).status).toBe(200);
    const replay = await tokenRequest(boards[1], {
      grant_type: 'refresh_token',
      refresh_token: other.tokens.refresh_token!,
      client_id: other.setup.client.client_id,
    });
    expect(replay.body.error_description).toBe('This refresh token was already used: the grant is revoked for safety; sign in again');
    expect((await fetch(`${boards[0]}/api/mcp/v1/labels`, { headers: bearer(rotated.access_token) })).status).toBe(401);
  });

  it('runs flows on one flow instance with a grant made on the other, and refuses it there at once once revoked', async () => {
    const { tokens } = await signInClient(`${flows[0]}/api/llm/acme/mcp`, cookie, { scopeKey: 'acme', access: 'run' });
    const run = (base: string) =>
      fetch(`${base}/api/llm/acme/flows/greeter/run`, {
        method: 'POST',
        headers: { ...bearer(tokens.access_token), 'content-type': 'application/json' },
        body: JSON.stringify({ input: { who: 'Ada' } }),
      });
    const answered = await run(flows[1]);
    expect(answered.status).toBe(200);
    expect(await answered.text()).toBe('Hello Ada');
    const listed = await (await fetch(`${flows[0]}/api/llm/acme/oauth-grants`, { headers: { cookie } })).json();
    expect(listed.grants).toHaveLength(1);
    const revoked = await fetch(`${flows[1]}/api/llm/acme/oauth-grants/${listed.grants[0].id}`, { method: 'DELETE', headers: { cookie, origin: flows[1] } });
    expect(revoked.status).toBe(200);
    expect((await run(flows[0])).status).toBe(401);
  });
});
