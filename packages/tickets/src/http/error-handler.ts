import { AppError, fromFrameworkError } from '@switchboard/core';
import type { App } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import { MCP_PATHS } from './paths.ts';

/** The `WWW-Authenticate` challenge of a 401 without an authorization server to point at. */
export const BEARER_CHALLENGE = 'Bearer realm="switchboard-tickets"';

/** The `WWW-Authenticate` challenge of a request's 401, or with `insufficient_scope` of its 403 (the OAuth step-up). */
export type ChallengeOf = (request: FastifyRequest, error?: 'insufficient_scope') => string;

/** The REST error body: `{"error": {"code", "message", "details"?}}`. */
export function errorBody(error: AppError) {
  return { error: { code: error.code, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) } };
}

/**
 * One error handler for the service: AppErrors and framework errors keep their status; anything else is a 500
 * without internals. A 401 and an `insufficient_scope` 403 carry the challenge that tells an MCP client where
 * to sign in (`resource_metadata`) and what to ask for.
 */
export function installErrorHandler(app: App, challengeOf: ChallengeOf = () => BEARER_CHALLENGE): void {
  app.setErrorHandler((error, request, reply) => {
    const known = fromFrameworkError(error);
    if (!known) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(errorBody(new AppError('internal', 'Internal error; the request id in X-Request-Id identifies it in the logs.')));
    }
    if (known.code === 'unauthorized') reply.header('www-authenticate', challengeOf(request));
    if (known.code === 'insufficient_scope') reply.header('www-authenticate', challengeOf(request, 'insufficient_scope'));
    if (known.retryAfter !== undefined) reply.header('retry-after', String(known.retryAfter));
    if (known.code === 'invalid_json' && MCP_PATHS.has(request.url.split('?')[0])) {
      // JSON-RPC clients expect a parse error in JSON-RPC form.
      return reply.code(400).send({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${known.message}` }, id: null });
    }
    return reply.code(known.status).send(errorBody(known));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)));
  });
}
