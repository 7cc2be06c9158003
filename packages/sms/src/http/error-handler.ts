import { AppError, fromFrameworkError } from '@switchboard/core';
import type { App } from '@switchboard/core';
import type { ValidationIssue } from '../domain/validation.ts';

/** A 422 with pydantic-shaped issues. */
export function validationFailed(issues: ValidationIssue[]): AppError {
  return new AppError('validation_failed', 'Validation failed', issues);
}

/**
 * The service's one error handler: FastAPI's shapes — `{"detail": [...]}`
 * for 422, `{"detail": "..."}` for everything else, never a stack trace.
 */
export function installErrorHandler(app: App): void {
  app.setErrorHandler((error, request, reply) => {
    const known = fromFrameworkError(error);
    if (!known) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ detail: 'Internal Server Error' });
    }
    if (known.retryAfter !== undefined) reply.header('retry-after', String(known.retryAfter));
    if (known.code === 'validation_failed' && Array.isArray(known.details)) return reply.status(422).send({ detail: known.details });
    return reply.status(known.status).send({ detail: known.message });
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ detail: 'Not Found' }));
}
