// Client ID metadata documents (mcp.md, "Clients"): a client named by the https URL of its document, fetched
// through the SSRF guard without redirects, within size limits; its client_id must be that URL.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { useBoard } from './helpers.ts';
import { signedInUser, webCall, type SignedIn } from './web-helpers.ts';
import { REDIRECT_URI, consent } from '@switchboard/core/testing/oauth';

/** A self-signed certificate for 127.0.0.1, made with openssl for this run. */
function certificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tls = certificate();
let documents: Server;
let origin = '';
const documentsBy = (base: string): Record<string, { status: number; body: string; headers?: Record<string, string> }> => ({
  '/client.json': {
    status: 200,
    body: JSON.stringify({
      client_id: `${base}/client.json`,
      client_name: 'Document Client',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
    }),
  },
  '/other-id.json': { status: 200, body: JSON.stringify({ client_id: `${base}/client.json`, redirect_uris: [REDIRECT_URI] }) },
  '/moved.json': { status: 302, body: '', headers: { location: `${base}/client.json` } },
  '/big.json': { status: 200, body: JSON.stringify({ client_id: `${base}/big.json`, redirect_uris: [REDIRECT_URI], padding: 'x'.repeat(20_000) }) },
  '/text.json': { status: 200, body: 'not json' },
  '/bad-redirect.json': { status: 200, body: JSON.stringify({ client_id: `${base}/bad-redirect.json`, redirect_uris: ['http://evil.example/cb'] }) },
});

beforeAll(async () => {
  documents = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const found = documentsBy(origin)[req.url ?? ''];
    if (!found) return void res.writeHead(404).end();
    res.writeHead(found.status, { 'content-type': 'application/json', ...found.headers }).end(found.body);
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(documents.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => documents.close(() => resolve())));

/** The consent page's alert for an authorization request by `clientId`, or its status when there is none. */
async function pageFor(board: { url: string }, cookie: string, clientId: string): Promise<string> {
  const url = new URL(`${board.url}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    state: 's',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    resource: `${board.url}/api/mcp/v1/mcp`,
  }).toString();
  const response = await fetch(url, { headers: { cookie }, redirect: 'manual' });
  const html = await response.text();
  return /<p class="alert" role="alert">([^<]*)<\/p>/.exec(html)?.[1] ?? `${response.status} ${/<h1>([^<]*)<\/h1>/.exec(html)?.[1]}`;
}

describe.each(dialectsUnderTest())('client ID metadata documents on %s', (dialect) => {
  const board = useBoard(dialect, { env: { OAUTH_ALLOWED_HOSTS: '127.0.0.1' }, build: { oauthCa: tls.cert } });
  const guarded = useBoard(dialect, { key: 'SAFE' });
  let alice: SignedIn;

  beforeAll(async () => {
    alice = await signedInUser(board, 'alice@example.com', { memberOf: ['DEMO'] });
  });

  it('signs in a client named by its document URL with the SDK (no registration), and lists it by its name', async () => {
    const provider: OAuthClientProvider & { opened?: URL; saved?: OAuthTokens; information?: OAuthClientInformationMixed } = {
      clientMetadataUrl: `${origin}/client.json`,
      redirectUrl: REDIRECT_URI,
      state: () => 'doc-state',
      clientMetadata: { client_name: 'Document Client', redirect_uris: [REDIRECT_URI] },
      clientInformation: () => provider.information,
      saveClientInformation: (information) => {
        provider.information = information;
      },
      tokens: () => provider.saved,
      saveTokens: (tokens) => {
        provider.saved = tokens;
      },
      redirectToAuthorization: (url) => {
        provider.opened = url;
      },
      saveCodeVerifier: (verifier) => {
        verifierStore.value = verifier;
      },
      codeVerifier: () => verifierStore.value,
    };
    const verifierStore = { value: '' };
    const mcpUrl = `${board.url}/api/mcp/v1/mcp`;
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    await expect(new Client({ name: 'doc', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.opened!.searchParams.get('client_id')).toBe(`${origin}/client.json`);
    const opened = await fetch(provider.opened!, { headers: { cookie: alice.cookie }, redirect: 'manual' });
    expect(opened.headers.get('location')).toBeNull();
    const page = await opened.text();
    expect(page).toContain('<strong>Document Client</strong> wants to use the ticket board');
    expect(page).toContain(`Client identity published at <code>${origin}/client.json</code>`);
    const answer = await consent(provider.opened!, alice.cookie, { scopeKey: 'DEMO', access: 'write' });
    await transport.finishAuth(answer.params.code);
    const client = new Client({ name: 'doc', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    const grants = await webCall(board, alice.cookie, '/api/projects/DEMO/oauth-grants');
    expect(grants.body.grants.map((g: { client_name: string; client_id: string }) => [g.client_name, g.client_id])).toEqual([
      ['Document Client', `${origin}/client.json`],
    ]);
  });

  it('refuses a document that names another client, redirects, is too large, is not JSON, lists a bad redirect URI or is missing', async () => {
    expect(await pageFor(board, alice.cookie, `${origin}/other-id.json`)).toBe(
      `The client metadata document at ${origin}/other-id.json names another client_id (it must be the document&#39;s own URL)`,
    );
    expect(await pageFor(board, alice.cookie, `${origin}/moved.json`)).toBe(
      `The client metadata document at ${origin}/moved.json answered with a redirect, which is not followed`,
    );
    expect(await pageFor(board, alice.cookie, `${origin}/big.json`)).toBe(`The client metadata document at ${origin}/big.json is larger than 10240 bytes`);
    expect(await pageFor(board, alice.cookie, `${origin}/text.json`)).toBe(`The client metadata document at ${origin}/text.json is not JSON`);
    expect(await pageFor(board, alice.cookie, `${origin}/bad-redirect.json`)).toBe(
      `The client metadata document at ${origin}/bad-redirect.json is not valid: redirect_uris: &quot;http://evil.example/cb&quot; must be an https URL, or http on a loopback address (127.0.0.1, [::1] or localhost)`,
    );
    expect(await pageFor(board, alice.cookie, `${origin}/missing.json`)).toBe(
      `The client metadata document at ${origin}/missing.json answered HTTP 404 (redirects are not followed)`,
    );
    expect(await pageFor(board, alice.cookie, 'http://127.0.0.1/client.json')).toBe(
      'client_id &quot;http://127.0.0.1/client.json&quot; must be an https URL to be fetched as a client metadata document',
    );
  });

  it('never fetches a document from a private or loopback address unless OAUTH_ALLOWED_HOSTS allows it', async () => {
    const cookie = (await signedInUser(guarded, 'guard@example.com', { admin: true })).cookie;
    expect(await pageFor(guarded, cookie, `${origin}/client.json`)).toBe(
      `The client metadata document at ${origin}/client.json cannot be fetched: Refused to connect to 127.0.0.1: the address 127.0.0.1 is private, loopback or link-local (allow it with OAUTH_ALLOWED_HOSTS)`,
    );
    const port = new URL(origin).port;
    expect(await pageFor(guarded, cookie, `https://localhost:${port}/client.json`)).toMatch(
      /cannot be fetched: Refused to connect to localhost: the address (127\.0\.0\.1|::1) is private, loopback or link-local/,
    );
    expect(await pageFor(guarded, cookie, 'https://169.254.169.254/latest/meta-data')).toMatch(
      /the address 169\.254\.169\.254 is private, loopback or link-local/,
    );
  });
});
