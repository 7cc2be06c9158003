// What the authorization server refuses, and how: each bad input a clear OAuth error by its RFC name, a page
// for a person where the client cannot be trusted with a redirect, never a 500 or a stack trace.
import { beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { useBoard } from './helpers.ts';
import { signedInUser, type SignedIn } from './web-helpers.ts';
import {
  REDIRECT_URI,
  authorizationUrl,
  consent,
  discoverAndRegister,
  exchange,
  redirectOf,
  tokenRequest,
  type OAuthSetup,
} from '@switchboard/core/testing/oauth';

/** A clock running with real time plus an offset the tests move (codes live 60 s). */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

async function register(base: string, body: string, contentType = 'application/json') {
  const response = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: response.status, body: await response.json() };
}

describe.each(dialectsUnderTest())('OAuth refusals on %s', (dialect) => {
  const board = useBoard(dialect, { build: { now: clock.now } });
  let mcpUrl = '';
  let alice: SignedIn;
  let setup: OAuthSetup;

  beforeAll(async () => {
    mcpUrl = `${board.url}/api/mcp/v1/mcp`;
    alice = await signedInUser(board, 'alice@example.com', { memberOf: ['DEMO'] });
    await board.addProject('OTHER');
    setup = await discoverAndRegister(mcpUrl);
  });

  it('refuses malformed registrations with invalid_client_metadata or invalid_redirect_uri', async () => {
    const refusal = (error: string, error_description: string) => ({ status: 400, body: { error, error_description } });
    expect(await register(board.url, '{"redirect_uris": [')).toEqual(refusal('invalid_client_metadata', expect.stringMatching(/^Malformed JSON body/)));
    expect(await register(board.url, '[1]')).toEqual(refusal('invalid_client_metadata', 'The client metadata must be a JSON object'));
    expect(await register(board.url, '{}')).toEqual(refusal('invalid_redirect_uri', 'redirect_uris must list at least one redirect URI'));
    expect(await register(board.url, JSON.stringify({ redirect_uris: ['http://evil.example/cb'] }))).toEqual(
      refusal(
        'invalid_redirect_uri',
        'redirect_uris: "http://evil.example/cb" must be an https URL, or http on a loopback address (127.0.0.1, [::1] or localhost)',
      ),
    );
    expect(await register(board.url, JSON.stringify({ redirect_uris: [REDIRECT_URI], response_types: ['token'] }))).toEqual(
      refusal('invalid_client_metadata', 'response_types: "token" is not served here (only code)'),
    );
    expect(await register(board.url, 'redirect_uris=x', 'text/plain')).toEqual(refusal('invalid_client_metadata', 'The body must be application/json'));
    const huge = await register(board.url, JSON.stringify({ redirect_uris: [REDIRECT_URI], client_name: 'x'.repeat(2_000_000) }));
    expect(huge.status).toBe(413);
    expect(huge.body.error).toBe('invalid_client_metadata');
  });

  it('shows a page, never a redirect, for an unknown client, an unregistered redirect URI or a repeated parameter', async () => {
    const { url } = await authorizationUrl(setup);
    const page = async (change: (params: URLSearchParams) => void) => {
      const target = new URL(url);
      change(target.searchParams);
      const response = await fetch(target, { headers: { cookie: alice.cookie }, redirect: 'manual' });
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const html = await response.text();
      return { status: response.status, message: /<p class="alert" role="alert">([^<]*)<\/p>/.exec(html)?.[1] };
    };
    expect(await page((p) => p.set('client_id', 'client_nobody'))).toEqual({
      status: 400,
      message: 'Unknown client_id &quot;client_nobody&quot;: register the client first (POST /oauth/register)',
    });
    expect(await page((p) => p.set('redirect_uri', 'http://127.0.0.1:33418/elsewhere'))).toEqual({
      status: 400,
      message: 'redirect_uri &quot;http://127.0.0.1:33418/elsewhere&quot; is not one of the client&#39;s registered redirect URIs',
    });
    expect(await page((p) => p.append('state', 'again'))).toEqual({ status: 400, message: 'state is given more than once' });
  });

  it('redirects back with the RFC error and iss for a bad response type, missing state or PKCE, or a foreign resource', async () => {
    const { url } = await authorizationUrl(setup);
    const answer = async (change: (params: URLSearchParams) => void) => {
      const target = new URL(url);
      change(target.searchParams);
      const redirect = await redirectOf(await fetch(target, { headers: { cookie: alice.cookie }, redirect: 'manual' }));
      expect(redirect.status).toBe(303);
      expect(redirect.location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
      expect(redirect.params.iss).toBe(board.url);
      return `${redirect.params.error}: ${redirect.params.error_description}`;
    };
    expect(await answer((p) => p.set('response_type', 'token'))).toBe('unsupported_response_type: response_type must be "code", not "token"');
    expect(await answer((p) => p.delete('state'))).toBe('invalid_request: state is required');
    expect(await answer((p) => p.delete('code_challenge'))).toBe('invalid_request: code_challenge is required (PKCE with S256)');
    expect(await answer((p) => p.set('code_challenge_method', 'plain'))).toBe('invalid_request: code_challenge_method must be S256, not "plain"');
    expect(await answer((p) => p.set('resource', 'https://elsewhere.example/mcp'))).toBe(
      `invalid_target: resource "https://elsewhere.example/mcp" is not an MCP endpoint of this server (${mcpUrl}, ${mcpUrl}/readonly)`,
    );
    expect(await answer((p) => p.delete('resource'))).toBe('invalid_target: resource is required: the URL of the MCP endpoint the token is for');
  });

  it('sends a person who is not signed in to the sign-in page and back, and answers Deny with access_denied', async () => {
    const { url, state } = await authorizationUrl(setup);
    const anonymous = await redirectOf(await fetch(url, { redirect: 'manual' }));
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe(`/login?next=${encodeURIComponent(`/oauth/authorize?${url.searchParams}`)}`);
    const denied = await consent(url, alice.cookie, { decision: 'deny' });
    expect(denied.params).toEqual({ error: 'access_denied', error_description: 'The user denied access', state, iss: board.url });
  });

  it('refuses a consent post from another origin, for a project the person may not grant, or with access not offered', async () => {
    const { url } = await authorizationUrl(setup, { resource: `${mcpUrl}/readonly` });
    const post = async (fields: Record<string, string>, origin: string | false = board.url) => {
      const form = new URLSearchParams(url.searchParams);
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      const headers: Record<string, string> = { cookie: alice.cookie, 'content-type': 'application/x-www-form-urlencoded' };
      if (origin) headers.origin = origin;
      const response = await fetch(new URL('/oauth/authorize', url), { method: 'POST', headers, body: form, redirect: 'manual' });
      const html = await response.text();
      return { status: response.status, message: /<p class="alert" role="alert">([^<]*)<\/p>/.exec(html)?.[1] };
    };
    const allow = { decision: 'allow', scope_key: 'DEMO', access: 'read' };
    expect(await post(allow, 'https://evil.example')).toEqual({
      status: 403,
      message: 'Origin did not match: Origin &quot;https://evil.example&quot; is not this service&#39;s origin',
    });
    expect((await post(allow, false)).status).toBe(403);
    expect(await post({ ...allow, scope_key: 'OTHER' })).toEqual({ status: 403, message: 'You cannot grant access to that project: pick one of yours' });
    // The read-only endpoint offers read access only.
    expect(await post({ ...allow, access: 'write' })).toEqual({ status: 400, message: 'Pick the access to grant: Read only' });
    expect(await post({ decision: 'maybe' })).toEqual({ status: 400, message: 'Choose Allow or Deny' });
  });

  it('lists only the projects of the person on the consent page, and offers no Allow to a person with none', async () => {
    const { url } = await authorizationUrl(setup);
    const html = await (await fetch(url, { headers: { cookie: alice.cookie } })).text();
    expect([...html.matchAll(/<option value="([^"]+)"/g)].map((match) => match[1])).toEqual(['DEMO']);
    expect(html).toContain('<strong>Test Agent</strong> wants to use the ticket board as <strong>alice@example.com</strong>');
    const loner = await signedInUser(board, 'loner@example.com');
    const lonely = await (await fetch(url, { headers: { cookie: loner.cookie } })).text();
    expect(lonely).toContain('You are not a member of any project the ticket board can grant here.');
    expect(lonely).not.toContain('value="allow"');
  });

  it('refuses codes that are reused (revoking their grant), expired, or sent with the wrong client, redirect URI, verifier or resource', async () => {
    const codeFor = async () => {
      const { url, codeVerifier } = await authorizationUrl(setup);
      return { code: (await consent(url, alice.cookie, { scopeKey: 'DEMO', access: 'read' })).params.code, codeVerifier };
    };
    const base = (code: string, codeVerifier: string) => ({
      grant_type: 'authorization_code',
      code,
      code_verifier: codeVerifier,
      client_id: setup.client.client_id,
      redirect_uri: REDIRECT_URI,
      resource: mcpUrl,
    });
    const invalid = (error_description: string) => ({ status: 400, body: { error: 'invalid_grant', error_description } });

    const first = await codeFor();
    const tokens = await exchange(setup, first.code, first.codeVerifier);
    expect(await tokenRequest(board.url, base(first.code, first.codeVerifier))).toEqual(
      invalid('This authorization code was already used: the tokens issued for it are revoked; sign in again'),
    );
    expect((await fetch(`${board.url}/api/mcp/v1/labels`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);

    const other = await discoverAndRegister(mcpUrl);
    const cases: Array<[Record<string, string>, string]> = [
      [{ client_id: other.client.client_id }, 'This authorization code was issued to another client'],
      [{ redirect_uri: 'http://127.0.0.1:33418/other' }, 'redirect_uri does not match the one of the authorization request'],
      [{ code_verifier: 'x'.repeat(43) }, 'code_verifier does not match the code_challenge (PKCE)'],
      [{ resource: `${mcpUrl}/readonly` }, `resource "${mcpUrl}/readonly" is not the one the code was issued for`],
    ];
    for (const [change, message] of cases) {
      const fresh = await codeFor();
      expect(await tokenRequest(board.url, { ...base(fresh.code, fresh.codeVerifier), ...change })).toEqual(invalid(message));
      // A refused exchange spends the code: the right request cannot follow it.
      expect((await tokenRequest(board.url, base(fresh.code, fresh.codeVerifier))).body.error).toBe('invalid_grant');
    }
    const late = await codeFor();
    clock.offsetMs = 61_000;
    try {
      expect(await tokenRequest(board.url, base(late.code, late.codeVerifier))).toEqual(
        invalid('This authorization code has expired (codes live 60 seconds); sign in again'),
      );
    } finally {
      clock.offsetMs = 0;
    }
    expect(await tokenRequest(board.url, base('sbc_never-issued', first.codeVerifier))).toEqual(invalid('Unknown authorization code'));
  });

  it('refuses malformed token requests by their RFC names, never with a 500', async () => {
    const raw = async (body: string, contentType = 'application/x-www-form-urlencoded') => {
      const response = await fetch(`${board.url}/oauth/token`, { method: 'POST', headers: { 'content-type': contentType }, body });
      return { status: response.status, body: await response.json() };
    };
    expect(await raw('grant_type=password&username=a')).toEqual({
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: 'grant_type must be authorization_code or refresh_token' },
    });
    expect(await raw('code=x')).toEqual({ status: 400, body: { error: 'invalid_request', error_description: 'grant_type is required' } });
    expect(await raw('grant_type=authorization_code&client_id=a')).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'code is required' },
    });
    expect(await raw('grant_type=refresh_token&grant_type=refresh_token')).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'grant_type is given more than once' },
    });
    expect(await raw('{"grant_type":"authorization_code"}', 'application/json')).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'The body must be application/x-www-form-urlencoded' },
    });
    expect(await raw('x', 'text/plain')).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'The body must be application/x-www-form-urlencoded' },
    });
    expect(await raw(`grant_type=refresh_token&client_id=${setup.client.client_id}&refresh_token=sbr_unknown`)).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Unknown refresh token' },
    });
    const revoke = await fetch(`${board.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=sbr_unknown',
    });
    expect(revoke.status).toBe(200);
  });
});

describe.each(dialectsUnderTest())('OAuth client registrations per address on %s', (dialect) => {
  // A clock the test sets: the limit's window and Retry-After are exact.
  const fixed = { at: new Date('2026-11-28T09:00:00.000Z') };
  const board = useBoard(dialect, { env: { OAUTH_REGISTRATION_RATE: '2/h', TRUST_PROXY: 'true' }, build: { now: () => fixed.at } });
  const metadata = JSON.stringify({ client_name: 'Flooder', redirect_uris: [REDIRECT_URI] });
  const from = async (address: string, body = metadata) => {
    const response = await fetch(`${board.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body,
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
  };

  it('refuses registrations past OAUTH_REGISTRATION_RATE from one address with 429 and Retry-After, and counts each address alone', async () => {
    const first = await from('198.51.100.7');
    expect(first.status).toBe(201);
    expect(first.body.client_name).toBe('Flooder');
    fixed.at = new Date('2026-11-28T09:20:00.000Z');
    expect((await from('198.51.100.7')).status).toBe(201);
    const tooMany = {
      status: 429,
      // The first of the two leaves the window at 10:00, 40 minutes after this clock.
      retryAfter: '2400',
      body: {
        error: 'temporarily_unavailable',
        error_description:
          'Too many clients registered from this address (at most 2 within an hour); register again later, or reuse a client_id already registered',
      },
    };
    expect(await from('198.51.100.7')).toEqual(tooMany);
    // The limit comes before the metadata is read: a flood of malformed bodies costs no parsing either.
    expect(await from('198.51.100.7', '{}')).toEqual(tooMany);
    // Malformed bodies from another address are refused as before, and stored nothing that counts.
    expect((await from('203.0.113.9', '{}')).status).toBe(400);
    expect((await from('203.0.113.9')).status).toBe(201);
    expect((await from('203.0.113.9')).status).toBe(201);
    // Once the first registration has left the window, one more fits.
    fixed.at = new Date('2026-11-28T10:00:00.000Z');
    expect((await from('198.51.100.7')).status).toBe(201);
    expect(await from('198.51.100.7')).toEqual({ ...tooMany, retryAfter: '1200' });
  });
});
