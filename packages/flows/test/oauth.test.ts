// OAuth on the flow service, at the token level (its MCP endpoint comes with issue 24): the metadata of each
// organization's endpoint, a grant of `flows:run` for the organization the endpoint names, tokens that run
// flows as the person who consented and nothing more, and grants listed and revoked beside the tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { MembershipStore, UserStore, openPlatformDatabase } from '@switchboard/core';
import { authorizationUrl, discoverAndRegister, refresh, signInClient } from '@switchboard/core/testing/oauth';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHarness, type Harness } from './helpers/harness.ts';
import { GREETER_FLOW } from './helpers/greeter-flow.ts';

describe.each(dialectsUnderTest())('OAuth on the flow service (%s)', (dialect) => {
  let h: Harness;
  let mcpUrl = '';
  const cookies = { mia: '', outsider: '' };

  async function signIn(email: string, password: string): Promise<string> {
    const response = await fetch(`${h.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return response.headers.get('set-cookie')!.split(';')[0];
  }
  const withBearer = (token: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${h.base}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  beforeAll(async () => {
    h = await startHarness(dialect);
    mcpUrl = `${h.base}/api/llm/acme/mcp`;
    await h.save(GREETER_FLOW);
    await h.stores.orgs.createOrg('beta', 'Beta Ltd');
    const platform = await openPlatformDatabase(h.db.env);
    try {
      const users = new UserStore(platform.db);
      const mia = (await users.create({ email: 'mia@example.com', password: 'mia-password' })).user;
      await users.create({ email: 'out@example.com', password: 'out-password' });
      await new MembershipStore(platform.db).add('flows', 'acme', mia.id);
      await new MembershipStore(platform.db).add('flows', 'beta', mia.id);
    } finally {
      await platform.close();
    }
    cookies.mia = await signIn('mia@example.com', 'mia-password');
    cookies.outsider = await signIn('out@example.com', 'out-password');
  });
  afterAll(() => h?.close());

  it("serves the metadata of an organization's MCP endpoint and the authorization server's", async () => {
    const resource = await (await fetch(`${h.base}/.well-known/oauth-protected-resource/api/llm/acme/mcp`)).json();
    expect(resource).toEqual({
      resource: mcpUrl,
      authorization_servers: [h.base],
      scopes_supported: ['flows:run'],
      bearer_methods_supported: ['header'],
      resource_name: 'Switchboard flow service',
    });
    const root = await (await fetch(`${h.base}/.well-known/oauth-protected-resource`)).json();
    expect(root).toEqual({ ...resource, resource: h.base });
    const server = await (await fetch(`${h.base}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: h.base,
      token_endpoint: `${h.base}/oauth/token`,
      scopes_supported: ['flows:run'],
      code_challenge_methods_supported: ['S256'],
    });
    const unauthenticated = await fetch(`${h.base}/api/llm/acme/flows/greeter/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe(
      `Bearer realm="switchboard-flows", resource_metadata="${h.base}/.well-known/oauth-protected-resource/api/llm/acme/mcp", scope="flows:run"`,
    );
  });

  it('grants flows:run for the organization the endpoint names, and the token runs its flows as the person', async () => {
    const setup = await discoverAndRegister(mcpUrl);
    const { url } = await authorizationUrl(setup);
    const page = await (await fetch(url, { headers: { cookie: cookies.mia } })).text();
    // Only acme, the endpoint's organization, although Mia is in beta too.
    expect([...page.matchAll(/<option value="([^"]+)"/g)].map((match) => match[1])).toEqual(['acme']);
    expect(page).toContain('Run flows');
    const { tokens } = await signInClient(mcpUrl, cookies.mia, { scopeKey: 'acme', access: 'run' });
    expect(tokens.scope).toBe('flows:run');
    const run = await withBearer(tokens.access_token, '/api/llm/acme/flows/greeter/run', { method: 'POST', body: { input: { who: 'OAuth' } } });
    expect(run.status).toBe(200);
    expect(await run.text()).toBe('Hello OAuth');
    // Managing the organization needs more than the token has: the step-up challenge names what to ask for.
    const manage = await withBearer(tokens.access_token, '/api/llm/acme/flows');
    expect(manage.status).toBe(403);
    expect(manage.headers.get('www-authenticate')).toBe(
      `Bearer realm="switchboard-flows", error="insufficient_scope", resource_metadata="${h.base}/.well-known/oauth-protected-resource/api/llm/acme/mcp", scope="flows:run"`,
    );
    expect((await manage.json()).error).toEqual({
      message: 'This OAuth token may run flows only (scope flows:run); managing the organization needs a manage token or a signed-in user',
      type: 'permission_error',
      param: null,
      code: 'insufficient_scope',
    });
    const foreign = await withBearer(tokens.access_token, '/api/llm/beta/flows/greeter/run', { method: 'POST', body: { input: { who: 'x' } } });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.code).toBe('permission_denied');
  });

  it("an OAuth token and a signed-in session call the organization's MCP tools; another organization's endpoint answers 404", async () => {
    expect((await h.put('/api/llm/acme/flows/greeter/mcp', { enabled: true })).status).toBe(200);
    const { tokens } = await signInClient(mcpUrl, cookies.mia, { scopeKey: 'acme', access: 'run' });
    const client = new Client({ name: 'oauth-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } } }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greeter', 'get_flow_run']);
      const result = await client.callTool({ name: 'greeter', arguments: { who: 'Mia' } });
      expect(result.structuredContent).toMatchObject({ status: 'succeeded', output: 'Hello Mia' });
    } finally {
      await client.close();
    }
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    const foreign = await fetch(`${h.base}/api/llm/beta/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${tokens.access_token}` },
      body: JSON.stringify(list),
    });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error).toMatchObject({ code: 'org_not_found', message: 'Organization "beta" not found' });
    const session = await fetch(mcpUrl, { method: 'POST', headers: { ...headers, cookie: cookies.mia, origin: h.base }, body: JSON.stringify(list) });
    expect(session.status).toBe(200);
    expect((await session.json()).result.tools.map((tool: { name: string }) => tool.name)).toEqual(['greeter', 'get_flow_run']);
  });

  it('offers nothing to grant to a person who is not in the organization, and refuses a foreign organization in the form', async () => {
    const setup = await discoverAndRegister(mcpUrl);
    const { url } = await authorizationUrl(setup);
    const page = await (await fetch(url, { headers: { cookie: cookies.outsider } })).text();
    expect(page).toContain('You are not a member of any organization the flow service can grant here.');
    const answer = await fetch(new URL('/oauth/authorize', url), {
      method: 'POST',
      headers: { cookie: cookies.mia, origin: h.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...Object.fromEntries(url.searchParams), decision: 'allow', scope_key: 'beta', access: 'run' }),
      redirect: 'manual',
    });
    expect(answer.status).toBe(403);
  });

  it('lists grants beside the tokens and revokes one: its tokens and refresh fail at once', async () => {
    const { setup, tokens } = await signInClient(mcpUrl, cookies.mia, { scopeKey: 'acme', access: 'run' });
    const rotated = await refresh(setup, tokens.refresh_token!);
    const listed = await (await fetch(`${h.base}/api/llm/acme/oauth-grants`, { headers: { cookie: cookies.mia } })).json();
    const grant = listed.grants.find((g: { client_id: string }) => g.client_id === setup.client.client_id);
    expect(grant).toMatchObject({ client_name: 'Test Agent', user_email: 'mia@example.com', access: 'run', scope: 'flows:run' });
    expect((await fetch(`${h.base}/api/llm/acme/oauth-grants`, { headers: { authorization: `Bearer ${h.runToken}` } })).status).toBe(403);
    const revoked = await fetch(`${h.base}/api/llm/acme/oauth-grants/${grant.id}`, { method: 'DELETE', headers: { cookie: cookies.mia, origin: h.base } });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ revoked: true });
    const run = await withBearer(rotated.access_token, '/api/llm/acme/flows/greeter/run', { method: 'POST', body: { input: { who: 'again' } } });
    expect(run.status).toBe(401);
    expect((await run.json()).error.message).toBe('Invalid, expired or revoked OAuth access token: refresh it, or sign in again');
    const again = await fetch(`${h.base}/api/llm/acme/oauth-grants/${grant.id}`, { method: 'DELETE', headers: { cookie: cookies.mia, origin: h.base } });
    expect(again.status).toBe(404);
    expect((await again.json()).error.code).toBe('grant_not_found');
    // Existing tokens keep working as before.
    expect((await withBearer(h.runToken, '/api/llm/acme/flows/greeter/run', { method: 'POST', body: { input: { who: 'sbf' } } })).status).toBe(200);
  });

  it("refuses a resource that is not an organization's MCP endpoint here (the board's, for one)", async () => {
    const setup = await discoverAndRegister(mcpUrl);
    const { url } = await authorizationUrl(setup, { resource: `${h.base}/api/mcp/v1/mcp` });
    const answer = await fetch(url, { headers: { cookie: cookies.mia }, redirect: 'manual' });
    expect(answer.status).toBe(303);
    const params = new URL(answer.headers.get('location')!).searchParams;
    expect(params.get('error')).toBe('invalid_target');
    expect(params.get('error_description')).toBe(`resource "${h.base}/api/mcp/v1/mcp" is not an MCP endpoint of this server (${h.base}/api/llm/…/mcp)`);
  });
});

describe.each(dialectsUnderTest())('OAuth client registrations per address on the flow service (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect, { OAUTH_REGISTRATION_RATE: '1/h' });
  });
  afterAll(() => h?.close());

  it('takes OAUTH_REGISTRATION_RATE: one registration an hour, then 429 temporarily_unavailable with Retry-After', async () => {
    const register = () =>
      fetch(`${h.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Cursor', redirect_uris: ['http://127.0.0.1:33418/callback'] }),
      });
    expect((await register()).status).toBe(201);
    const refused = await register();
    expect(refused.status).toBe(429);
    // The first registration leaves the hour's window an hour after it was made, less the moment since.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(3590);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(await refused.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description:
        'Too many clients registered from this address (at most 1 within an hour); register again later, or reuse a client_id already registered',
    });
  });
});
