import type { FastifyReply, FastifyRequest } from 'fastify';
import { fromFrameworkError } from '../errors.ts';
import { baseUrlOf, type App } from '../http-server.ts';
import type { WebSessions } from '../session-routes.ts';
import { AUTHORIZE_PARAMS, RedirectedError, redirectWith, singleParams } from './authorize-request.ts';
import type { AuthorizationServer } from './authorization-server.ts';
import type { TokenAnswer } from './token-service.ts';
import { pageHeaders, renderConsentPage, renderErrorPage } from './consent-page.ts';
import { OAuthError, oauthErrorBody } from './oauth-errors.ts';

/** What the OAuth routes of a service are built from. */
export interface OAuthRoutesOptions {
  server: AuthorizationServer;
  /** The web UIs' sessions: who is signed in, and the Origin check of the consent form. */
  web: WebSessions;
  /** PUBLIC_BASE_URL, when configured: the issuer and every URL in the metadata. */
  publicBaseUrl: string | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on /oauth/authorize: its errors are pages for a person, not JSON for a client. */
    oauthPage?: boolean;
    /** Set on /oauth/register: a malformed body is `invalid_client_metadata` (RFC 7591) rather than `invalid_request`. */
    oauthRegistration?: boolean;
  }
}

// Endpoints a browser-based client (the MCP Inspector) calls from another origin: no cookie is involved.
const CORS_PATHS = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/*',
  '/oauth/register',
  '/oauth/token',
  '/oauth/revoke',
];

/** The OAuth error a request's failure is answered with; anything unexpected is logged and becomes `server_error`. */
function oauthErrorOf(error: unknown, request: FastifyRequest): OAuthError {
  if (error instanceof OAuthError) return error;
  const known = fromFrameworkError(error);
  if (!known) {
    request.log.error({ err: error }, 'unhandled error in the authorization server');
    return new OAuthError('server_error', 'Internal error; the request id in X-Request-Id identifies it in the logs');
  }
  if (known.code === 'unavailable') return new OAuthError('temporarily_unavailable', known.message);
  if (known.code === 'forbidden') return new OAuthError('access_denied', known.message);
  const code = request.routeOptions.config?.oauthRegistration ? 'invalid_client_metadata' : 'invalid_request';
  if (known.code === 'payload_too_large') return new OAuthError(code, known.message, 413);
  if (known.code === 'unsupported_media_type')
    return new OAuthError(code, code === 'invalid_request' ? 'The body must be application/x-www-form-urlencoded' : 'The body must be application/json');
  return new OAuthError(code, known.message);
}

/** A form body (application/x-www-form-urlencoded) as its parameters, each once; anything else is refused. */
function formOf(request: FastifyRequest): Record<string, string> {
  if (!(request.body instanceof URLSearchParams)) throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
  const form = singleParams(request.body);
  // A client that authenticates with HTTP Basic (client_secret_basic) names itself there; it has no secret here.
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (basic && form.client_id === undefined) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const id = decoded.slice(0, decoded.includes(':') ? decoded.indexOf(':') : undefined);
    try {
      if (id !== '') form.client_id = decodeURIComponent(id);
    } catch {
      throw new OAuthError('invalid_client', 'The client id in the Authorization header is malformed');
    }
  }
  return form;
}

/** The query of a request, each parameter once. */
function queryOf(request: FastifyRequest): Record<string, string> {
  const at = request.url.indexOf('?');
  return singleParams(new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1)));
}

/** The sign-in page, coming back to this authorization request once signed in. */
function signInFirst(reply: FastifyReply, params: Record<string, string>): FastifyReply {
  const back = `/oauth/authorize?${new URLSearchParams(params).toString()}`;
  return reply
    .code(303)
    .header('cache-control', 'no-store')
    .redirect(`/login?next=${encodeURIComponent(back)}`, 303);
}

/**
 * Mounts the authorization server of a service (mcp.md, "Signing in: OAuth 2.1 for MCP clients"): the
 * metadata of the server (RFC 8414, also at the OpenID path) and of each MCP endpoint (RFC 9728), dynamic
 * registration, the authorization endpoint (sign-in, consent), the token and revocation endpoints. Errors are
 * OAuth's: JSON `{"error", "error_description"}` for clients, a page for a person at /oauth/authorize, and a
 * redirect to the client once the client and its redirect URI are known to be good. Never a stack trace.
 */
export async function registerOAuthRoutes(app: App, options: OAuthRoutesOptions): Promise<void> {
  const { server, web } = options;
  const baseOf = (request: FastifyRequest) => baseUrlOf(request, options.publicBaseUrl);
  const tags = ['oauth'];

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, new URLSearchParams(body as string)),
    );
    scope.setErrorHandler((error, request, reply) => {
      if (error instanceof RedirectedError) {
        const to = redirectWith(error.redirectUri, { error: error.code, error_description: error.description, state: error.state, iss: baseOf(request) });
        return reply.code(303).header('cache-control', 'no-store').redirect(to, 303);
      }
      const failure = oauthErrorOf(error, request);
      if (failure.code === 'temporarily_unavailable') reply.header('retry-after', String(failure.retryAfterSeconds ?? 5));
      if (request.routeOptions.config?.oauthPage) {
        // A person reads this page: an unknown client is a bad request to them, not a failed authentication.
        const status = failure.status === 401 ? 400 : failure.status;
        return reply.code(status).headers(pageHeaders()).send(renderErrorPage('Cannot connect', failure.description));
      }
      return reply.code(failure.status).header('cache-control', 'no-store').send(oauthErrorBody(failure));
    });
    scope.addHook('onRequest', (request, reply, done) => {
      if (CORS_PATHS.includes(request.routeOptions.url ?? '')) reply.header('access-control-allow-origin', '*');
      done();
    });
    for (const path of CORS_PATHS) {
      scope.options(path, { schema: { hide: true } }, (_request, reply) =>
        reply
          .code(204)
          .header('access-control-allow-methods', 'GET, POST, OPTIONS')
          .header('access-control-allow-headers', 'authorization, content-type, mcp-protocol-version')
          .header('access-control-max-age', '600')
          .send(),
      );
    }

    const serverMetadata = async (request: FastifyRequest) => server.metadata(baseOf(request));
    scope.get('/.well-known/oauth-authorization-server', { schema: { tags, summary: 'Authorization server metadata (RFC 8414)' } }, serverMetadata);
    scope.get('/.well-known/openid-configuration', { schema: { tags, summary: 'The same metadata at the OpenID discovery path' } }, serverMetadata);

    scope.get(
      '/.well-known/oauth-protected-resource',
      { schema: { tags, summary: "Protected resource metadata (RFC 9728) of the service's main MCP endpoint" } },
      async (request) => server.rootResourceMetadata(baseOf(request)),
    );
    scope.get(
      '/.well-known/oauth-protected-resource/*',
      { schema: { tags, summary: 'Protected resource metadata (RFC 9728) of the MCP endpoint at the path after the prefix' } },
      async (request, reply) => {
        const path = `/${(request.params as { '*': string })['*']}`;
        const metadata = server.resourceMetadata(baseOf(request), path);
        if (!metadata) return reply.code(404).send({ error: 'not_found', error_description: `${path} is not an MCP endpoint of this server` });
        return metadata;
      },
    );

    scope.post(
      '/oauth/register',
      { config: { oauthRegistration: true }, schema: { tags, summary: 'Dynamic client registration (RFC 7591): public clients, PKCE' } },
      async (request, reply) => {
        // Fastify reads text/plain as a string (and this plugin forms as parameters): only JSON is client metadata.
        if (typeof request.body === 'string' || request.body instanceof URLSearchParams)
          throw new OAuthError('invalid_client_metadata', 'The body must be application/json');
        const client = await server.clients.register(request.body, request.ip);
        return reply.code(201).header('cache-control', 'no-store').send(client);
      },
    );

    scope.get(
      '/oauth/authorize',
      { config: { oauthPage: true }, schema: { tags, summary: 'Authorization endpoint: sign-in, then the consent page' } },
      async (request, reply) => {
        const params = queryOf(request);
        const authorization = await server.checkRequest(params, baseOf(request));
        const user = await web.userOf(request);
        if (!user) return signInFirst(reply, params);
        const choices = await server.choices(authorization, user);
        return reply
          .code(200)
          .headers(pageHeaders(new URL(authorization.redirectUri).origin))
          .send(renderConsentPage({ request: authorization, user, choices, spec: server.spec }));
      },
    );

    scope.post('/oauth/authorize', { config: { oauthPage: true }, schema: { tags, summary: 'The consent form: Allow or Deny' } }, async (request, reply) => {
      // The consent is given with the session cookie: the same CSRF rule as every other cookie write.
      web.requireSameOrigin(request);
      const form = formOf(request);
      const params = Object.fromEntries(AUTHORIZE_PARAMS.filter((name) => form[name] !== undefined).map((name) => [name, form[name]]));
      const base = baseOf(request);
      const authorization = await server.checkRequest(params, base);
      const user = await web.userOf(request);
      if (!user) return signInFirst(reply, params);
      let to: string;
      if (form.decision === 'deny') to = server.deny(authorization, base);
      else if (form.decision === 'allow') to = await server.approve(authorization, user, { scopeKey: form.scope_key, access: form.access }, base);
      else throw new OAuthError('invalid_request', 'Choose Allow or Deny');
      return reply.code(303).header('cache-control', 'no-store').redirect(to, 303);
    });

    scope.post(
      '/oauth/token',
      { schema: { tags, summary: 'Token endpoint: authorization_code (PKCE) and refresh_token (rotating)' } },
      async (request, reply) => {
        const form = formOf(request);
        let answer: TokenAnswer;
        if (form.grant_type === 'authorization_code') answer = await server.tokens.exchangeCode(form);
        else if (form.grant_type === 'refresh_token') answer = await server.tokens.refresh(form);
        else if (form.grant_type === undefined) throw new OAuthError('invalid_request', 'grant_type is required');
        else throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
        return reply.code(200).header('cache-control', 'no-store').header('pragma', 'no-cache').send(answer);
      },
    );

    scope.post('/oauth/revoke', { schema: { tags, summary: 'Token revocation (RFC 7009): revokes the whole grant' } }, async (request, reply) => {
      await server.tokens.revoke(formOf(request));
      return reply.code(200).header('cache-control', 'no-store').send({});
    });
  });
}
