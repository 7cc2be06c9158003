// An MCP client's side of OAuth, built from the SDK's own helpers (@modelcontextprotocol/sdk client/auth.js):
// discovery, registration, the authorization URL with PKCE, and the token exchanges. Only the person's part
// (signing in and consenting) is done here with plain HTTP; the browser tests do it in Chromium.
import { createServer, type Server } from 'node:http';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationFull, OAuthClientMetadata, OAuthMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** A registered client with what discovery found. */
export interface OAuthSetup {
  /** The MCP endpoint the client connects to (the resource). */
  resource: string;
  authorizationServer: string;
  metadata: OAuthMetadata;
  client: OAuthClientInformationFull;
  redirectUri: string;
}

/** The redirect URI the test clients register: a loopback callback (nothing needs to listen for plain-HTTP consent). */
export const REDIRECT_URI = 'http://127.0.0.1:33418/callback';

/** Discovers the authorization server from the MCP endpoint (RFC 9728, then RFC 8414) and registers a client (RFC 7591). */
export async function discoverAndRegister(mcpUrl: string, clientMetadata: Partial<OAuthClientMetadata> = {}): Promise<OAuthSetup> {
  const resourceMetadata = await discoverOAuthProtectedResourceMetadata(mcpUrl);
  const authorizationServer = String(resourceMetadata.authorization_servers![0]);
  const metadata = (await discoverAuthorizationServerMetadata(authorizationServer)) as OAuthMetadata;
  const redirectUri = clientMetadata.redirect_uris?.[0] ?? REDIRECT_URI;
  const client = await registerClient(authorizationServer, {
    metadata,
    clientMetadata: {
      client_name: 'Test Agent',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...clientMetadata,
    },
  });
  return { resource: String(resourceMetadata.resource), authorizationServer, metadata, client, redirectUri };
}

/** The authorization URL the client opens, with its PKCE verifier and state. */
export async function authorizationUrl(
  setup: OAuthSetup,
  options: { scope?: string; state?: string; resource?: string } = {},
): Promise<{ url: URL; codeVerifier: string; state: string }> {
  const state = options.state ?? `state-${Math.random().toString(36).slice(2)}`;
  const { authorizationUrl: url, codeVerifier } = await startAuthorization(setup.authorizationServer, {
    metadata: setup.metadata,
    clientInformation: setup.client,
    redirectUrl: setup.redirectUri,
    scope: options.scope,
    state,
    resource: new URL(options.resource ?? setup.resource),
  });
  return { url, codeVerifier, state };
}

/** What the consent form is sent with: the project, the access, the decision, and how the request looks. */
export interface ConsentChoice {
  scopeKey?: string;
  access?: string;
  decision?: 'allow' | 'deny';
  /** The Origin the browser sends (default: the server's own); false leaves it out. */
  origin?: string | false;
}

/** A redirect the server answered, with its Location's query parameters. */
export interface RedirectAnswer {
  status: number;
  location: string;
  params: Record<string, string>;
}

/** Opens the authorization URL signed in (the consent page must show), then posts the consent form as a person's browser does. */
export async function consent(url: URL, cookie: string, choice: ConsentChoice = {}): Promise<RedirectAnswer> {
  const page = await fetch(url, { headers: { cookie }, redirect: 'manual' });
  if (page.status !== 200) throw new Error(`the consent page answered ${page.status}: ${await page.text()}`);
  const form = new URLSearchParams(url.searchParams);
  form.set('decision', choice.decision ?? 'allow');
  if (choice.scopeKey !== undefined) form.set('scope_key', choice.scopeKey);
  if (choice.access !== undefined) form.set('access', choice.access);
  const headers: Record<string, string> = { cookie, 'content-type': 'application/x-www-form-urlencoded' };
  if (choice.origin !== false) headers.origin = choice.origin ?? url.origin;
  const answer = await fetch(new URL('/oauth/authorize', url), { method: 'POST', headers, body: form, redirect: 'manual' });
  return redirectOf(answer);
}

/** The status, Location and Location's query of an answer (a redirect), or an error with its body. */
export async function redirectOf(answer: Response): Promise<RedirectAnswer> {
  const location = answer.headers.get('location');
  if (!location) throw new Error(`expected a redirect, got ${answer.status}: ${await answer.text()}`);
  const target = new URL(location, 'http://server.invalid');
  return { status: answer.status, location, params: Object.fromEntries(target.searchParams) };
}

/** Exchanges a code for tokens with the SDK (RFC 6749 §4.1.3, PKCE, resource). */
export function exchange(setup: OAuthSetup, code: string, codeVerifier: string, resource = setup.resource): Promise<OAuthTokens> {
  return exchangeAuthorization(setup.authorizationServer, {
    metadata: setup.metadata,
    clientInformation: setup.client,
    authorizationCode: code,
    codeVerifier,
    redirectUri: setup.redirectUri,
    resource: new URL(resource),
  });
}

/** Exchanges a refresh token with the SDK. */
export function refresh(setup: OAuthSetup, refreshToken: string): Promise<OAuthTokens> {
  return refreshAuthorization(setup.authorizationServer, {
    metadata: setup.metadata,
    clientInformation: setup.client,
    refreshToken,
    resource: new URL(setup.resource),
  });
}

/** The whole sign-in of a client for a signed-in person: discovery, registration, consent, code exchange. */
export async function signInClient(
  mcpUrl: string,
  cookie: string,
  choice: ConsentChoice & { scope?: string; client?: Partial<OAuthClientMetadata> } = {},
): Promise<{ setup: OAuthSetup; tokens: OAuthTokens }> {
  const setup = await discoverAndRegister(mcpUrl, choice.client);
  const { url, codeVerifier } = await authorizationUrl(setup, { scope: choice.scope });
  const answer = await consent(url, cookie, choice);
  if (!answer.params.code) throw new Error(`consent answered ${answer.location}`);
  return { setup, tokens: await exchange(setup, answer.params.code, codeVerifier) };
}

/** What the token endpoint answers: the tokens on 200, an OAuth error (RFC 6749 §5.2) otherwise. */
export type TokenEndpointBody = Partial<OAuthTokens> & { error?: string; error_description?: string };

/** A raw form POST to the token endpoint: status and JSON body. */
export async function tokenRequest(base: string, form: Record<string, string>): Promise<{ status: number; body: TokenEndpointBody }> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: await response.json() };
}

/** A loopback server standing in for a client's redirect URI: resolves with the query of the first callback it receives. */
export async function startCallback(): Promise<{ url: string; received: Promise<Record<string, string>>; close(): Promise<void> }> {
  let resolve!: (params: Record<string, string>) => void;
  const received = new Promise<Record<string, string>>((r) => (resolve = r));
  const server: Server = createServer((req, res) => {
    resolve(Object.fromEntries(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Signed in</title><h1>You can close this window</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
