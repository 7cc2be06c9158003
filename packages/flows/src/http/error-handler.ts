import { AppError, fromFrameworkError, type App } from '@switchboard/core';
import { presentError } from '../domain/error-shape.ts';

/** The one place errors become responses: OpenAI's error shape, Retry-After on 429, no stack traces. */
export function installErrorHandling(app: App): void {
  app.setErrorHandler((error, request, reply) => {
    let known = fromFrameworkError(error);
    if (!known) {
      request.log.error({ err: error }, 'unhandled error');
      known = new AppError('internal', 'Internal server error');
    }
    // A JSON parser's message quotes the body around the fault: never on a route whose body holds a secret.
    if (known.code === 'invalid_json' && request.routeOptions.config?.secretBody)
      known = new AppError('invalid_json', 'Malformed JSON body: expected {"value": "…"} (the body is not quoted: it holds a secret)');
    if (known.retryAfter !== undefined) reply.header('retry-after', String(known.retryAfter));
    reply.status(known.status).type('application/json; charset=utf-8').send(presentError(known));
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new AppError('not_found', `Unknown route ${request.method} ${request.url.split('?')[0]}`);
    reply.status(404).type('application/json; charset=utf-8').send(presentError(error));
  });
}
