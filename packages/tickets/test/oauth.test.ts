// Signing in from MCP clients with OAuth 2.1 (mcp.md, "Signing in"): discovery, the SDK's own client, tokens
// acting as the person who consented, grants listed and revoked. The refusals are in oauth-errors.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { restCaller, useBoard } from './helpers.ts';
import { signedInUser, webCall, type SignedIn } from './web-helpers.ts';
import { REDIRECT_URI, consent, refresh, signInClient, tokenRequest } from '@switchboard/core/testing/oauth';

/** What Claude Code keeps for a server: the SDK's provider interface, in memory. */
class MemoryProvider implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  opened: URL | undefined;
  readonly redirectUrl = REDIRECT_URI;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'Claude Code (test)',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  state = () => 'the-state';
  clientInformation = () => this.information;
  saveClientInformation = (information: OAuthClientInformationMixed) => {
    this.information = information;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => {
    this.saved = tokens;
  };
  redirectToAuthorization = (url: URL) => {
    this.opened = url;
  };
  saveCodeVerifier = (verifier: string) => {
    this.verifier = verifier;
  };
  codeVerifier = () => this.verifier;
}

const ticketsScope = 'tickets:read tickets:write';

describe.each(dialectsUnderTest())('OAuth sign-in for MCP clients on %s', (dialect) => {
  const board = useBoard(dialect);
  let mcpUrl = '';
  let alice: SignedIn;

  beforeAll(async () => {
    mcpUrl = `${board.url}/api/mcp/v1/mcp`;
    alice = await signedInUser(board, 'alice@example.com', { memberOf: ['DEMO'] });
  });

  it('answers 401 on the MCP endpoint and REST with the resource metadata to sign in from', async () => {
    const challenge = `Bearer realm="switchboard-tickets", resource_metadata="${board.url}/.well-known/oauth-protected-resource/api/mcp/v1/mcp", scope="${ticketsScope}"`;
    const mcp = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe(challenge);
    for (const path of ['/api/mcp/v1/status', '/api/mcp/v1/tickets']) {
      const rest = await fetch(`${board.url}${path}`, { headers: { authorization: 'Bearer sbo_expired' } });
      expect(rest.status).toBe(401);
      expect(rest.headers.get('www-authenticate')).toBe(challenge);
    }
    const readonly = await fetch(`${mcpUrl}/readonly`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(readonly.status).toBe(401);
    expect(readonly.headers.get('www-authenticate')).toBe(
      `Bearer realm="switchboard-tickets", resource_metadata="${board.url}/.well-known/oauth-protected-resource/api/mcp/v1/mcp/readonly", scope="tickets:read"`,
    );
  });

  it('serves protected resource metadata (RFC 9728) and authorization server metadata (RFC 8414, also at the OpenID path)', async () => {
    const json = async (path: string) => {
      const response = await fetch(`${board.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      return response.json();
    };
    const resource = {
      resource: mcpUrl,
      authorization_servers: [board.url],
      scopes_supported: ['tickets:read', 'tickets:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'Switchboard ticket board',
    };
    expect(await json('/.well-known/oauth-protected-resource/api/mcp/v1/mcp')).toEqual(resource);
    expect(await json('/.well-known/oauth-protected-resource')).toEqual(resource);
    expect(await json('/.well-known/oauth-protected-resource/api/mcp/v1/mcp/readonly')).toEqual({
      ...resource,
      resource: `${mcpUrl}/readonly`,
      scopes_supported: ['tickets:read'],
    });
    const server = {
      issuer: board.url,
      authorization_endpoint: `${board.url}/oauth/authorize`,
      token_endpoint: `${board.url}/oauth/token`,
      registration_endpoint: `${board.url}/oauth/register`,
      revocation_endpoint: `${board.url}/oauth/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ['tickets:read', 'tickets:write'],
    };
    expect(await json('/.well-known/oauth-authorization-server')).toEqual(server);
    expect(await json('/.well-known/openid-configuration')).toEqual(server);
    const missing = await fetch(`${board.url}/.well-known/oauth-protected-resource/api/mcp/v1/status`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'not_found', error_description: '/api/mcp/v1/status is not an MCP endpoint of this server' });
  });

  it('signs a client in by URL alone with the SDK transport (401, discovery, registration, consent, token) and acts as user:EMAIL via CLIENT', async () => {
    const provider = new MemoryProvider();
    const first = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    await expect(new Client({ name: 'claude-code', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    // The SDK opened the authorization URL with PKCE, the state, the resource and the scope of the 401.
    const opened = provider.opened!;
    expect(opened.origin + opened.pathname).toBe(`${board.url}/oauth/authorize`);
    expect(Object.fromEntries(opened.searchParams)).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      state: 'the-state',
      resource: mcpUrl,
      scope: ticketsScope,
      redirect_uri: REDIRECT_URI,
    });
    const answer = await consent(opened, alice.cookie, { scopeKey: 'DEMO', access: 'write' });
    expect(answer.status).toBe(303);
    expect(answer.location.startsWith(`${REDIRECT_URI}?code=sbc_`)).toBe(true);
    expect(answer.params).toEqual({ code: answer.params.code, state: 'the-state', iss: board.url });
    await first.finishAuth(answer.params.code);
    expect(provider.saved).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: ticketsScope });
    expect(provider.saved!.access_token).toMatch(/^sbo_[A-Za-z0-9_-]{43}$/);
    expect(provider.saved!.refresh_token).toMatch(/^sbr_[A-Za-z0-9_-]{43}$/);

    const client = new Client({ name: 'claude-code', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    const created = await client.callTool({ name: 'create_ticket', arguments: { title: 'Made by an OAuth client' } });
    expect(created.isError).toBeFalsy();
    const key = JSON.parse((created.content as Array<{ text: string }>)[0].text).key;
    const ticket = await restCaller(board.url, provider.saved!.access_token)('get_ticket', { ticket_id: key });
    expect(ticket.activity.map((entry: { actor: string }) => entry.actor)).toEqual(['user:alice@example.com via Claude Code (test)']);
    await client.close();
  });

  it('refuses a REST write with a read grant: 403 insufficient_scope with the step-up challenge', async () => {
    const { tokens } = await signInClient(mcpUrl, alice.cookie, { scopeKey: 'DEMO', access: 'read' });
    const read = await fetch(`${board.url}/api/mcp/v1/status`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(read.status).toBe(200);
    for (const base of [`${board.url}/api/mcp/v1`, `${board.url}/api/projects/DEMO`]) {
      const write = await fetch(`${base}/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Not allowed' }),
      });
      expect(write.status).toBe(403);
      expect(write.headers.get('www-authenticate')).toBe(
        `Bearer realm="switchboard-tickets", error="insufficient_scope", resource_metadata="${board.url}/.well-known/oauth-protected-resource/api/mcp/v1/mcp", scope="${ticketsScope}"`,
      );
      expect(await write.json()).toEqual({
        error: { code: 'insufficient_scope', message: 'This token may only read (create_ticket changes the project): sign in again and grant Read and write.' },
      });
    }
  });

  it('narrows MCP to the read tools for a read grant, as for a read token', async () => {
    const { tokens } = await signInClient(mcpUrl, alice.cookie, { scopeKey: 'DEMO', access: 'read' });
    const client = new Client({ name: 'reader', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name)).toEqual([]);
    expect(tools.map((tool) => tool.name)).toContain('get_project_status');
    await client.close();
  });

  it('keeps project tokens (sbt_) working beside OAuth tokens', async () => {
    expect((await restCaller(board.url, board.token)('list_labels')).labels).toEqual([]);
  });

  it('rotates refresh tokens, and revokes the whole grant when a used one comes back', async () => {
    const { setup, tokens } = await signInClient(mcpUrl, alice.cookie, { scopeKey: 'DEMO', access: 'read' });
    expect(tokens.scope).toBe('tickets:read');
    const second = await refresh(setup, tokens.refresh_token!);
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    expect(second.access_token).not.toBe(tokens.access_token);
    expect((await restCaller(board.url, second.access_token)('list_labels')).labels).toEqual([]);
    // The first refresh token again: someone holds a copy, so every token of the grant stops.
    const replay = await tokenRequest(board.url, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: setup.client.client_id });
    expect(replay).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'This refresh token was already used: the grant is revoked for safety; sign in again' },
    });
    for (const token of [tokens.access_token, second.access_token]) {
      const refused = await fetch(`${board.url}/api/mcp/v1/labels`, { headers: { authorization: `Bearer ${token}` } });
      expect(refused.status).toBe(401);
    }
    const after = await tokenRequest(board.url, { grant_type: 'refresh_token', refresh_token: second.refresh_token!, client_id: setup.client.client_id });
    expect(after).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'This grant was revoked; sign in again' } });
  });

  it('lists grants beside the tokens (client, user, access, last used) and revokes one for good at once', async () => {
    const { setup, tokens } = await signInClient(mcpUrl, alice.cookie, { scopeKey: 'DEMO', access: 'write' });
    await restCaller(board.url, tokens.access_token)('list_labels');
    const listed = await webCall(board, alice.cookie, '/api/projects/DEMO/oauth-grants');
    expect(listed.status).toBe(200);
    const grant = listed.body.grants.find((g: { client_id: string }) => g.client_id === setup.client.client_id);
    expect(grant).toEqual({
      id: grant.id,
      client_name: 'Test Agent',
      client_id: setup.client.client_id,
      user_email: 'alice@example.com',
      access: 'write',
      scope: ticketsScope,
      created_at: grant.created_at,
      last_used_at: grant.last_used_at,
    });
    expect(grant.last_used_at).not.toBeNull();
    // A token cannot manage grants: that needs a signed-in user, as for tokens.
    const byToken = await fetch(`${board.url}/api/projects/DEMO/oauth-grants`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(byToken.status).toBe(403);
    const revoked = await webCall(board, alice.cookie, `/api/projects/DEMO/oauth-grants/${grant.id}`, { method: 'DELETE' });
    expect(revoked).toMatchObject({ status: 200, body: { revoked: true } });
    const refused = await fetch(`${board.url}/api/mcp/v1/labels`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: { code: 'unauthorized', message: 'Unknown, expired or revoked OAuth access token: refresh it, or sign in again.' },
    });
    const again = await webCall(board, alice.cookie, `/api/projects/DEMO/oauth-grants/${grant.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe(`No live OAuth grant "${grant.id}" in project DEMO: it does not exist or was already revoked.`);
    const refreshed = await tokenRequest(board.url, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: setup.client.client_id });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('stops a token once its user can no longer see the project, and revokes a grant through the revocation endpoint', async () => {
    const bob = await signedInUser(board, 'bob@example.com', { memberOf: ['DEMO'] });
    const { setup, tokens } = await signInClient(mcpUrl, bob.cookie, { scopeKey: 'DEMO', access: 'read' });
    const admin = await signedInUser(board, 'root@example.com', { admin: true });
    const members = await webCall(board, admin.cookie, '/api/projects/DEMO/members?limit=100');
    const bobId = members.body.members.find((m: { email: string }) => m.email === 'bob@example.com').id;
    expect((await webCall(board, admin.cookie, `/api/projects/DEMO/members/${bobId}`, { method: 'DELETE' })).status).toBe(200);
    const refused = await fetch(`${board.url}/api/mcp/v1/labels`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toBe('bob@example.com can no longer see project DEMO: sign in again.');

    const other = await signInClient(mcpUrl, alice.cookie, { scopeKey: 'DEMO', access: 'read' });
    const revoke = await fetch(`${board.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: other.tokens.refresh_token!, client_id: other.setup.client.client_id }),
    });
    expect(revoke.status).toBe(200);
    expect((await fetch(`${board.url}/api/mcp/v1/labels`, { headers: { authorization: `Bearer ${other.tokens.access_token}` } })).status).toBe(401);
    expect(setup.client.client_id).not.toBe(other.setup.client.client_id);
  });
});
