import { APICallError, RetryError } from 'ai';
import { AppError, fromDatabaseError, isAppError } from '@switchboard/core';
import { FlowsError } from '../domain/errors.ts';

/** Abort reason when the run outlives FLOWS_RUN_TIMEOUT_MS. */
export class RunTimeout extends Error {
  constructor(readonly ms: number) {
    super(`The run took longer than ${ms} ms`);
    this.name = 'RunTimeout';
  }
}

/** Abort reason when the caller went away. */
export class ClientGone extends Error {
  constructor() {
    super('The client closed the connection');
    this.name = 'ClientGone';
  }
}

/** Removes credentials from a provider's message: the known keys and anything shaped like one. */
export function scrubSecrets(message: string, secrets: Array<string | null | undefined>): string {
  let out = message;
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out.replace(/Bearer\s+[^\s"',]+/gi, 'Bearer [redacted]').replace(/\b(sk|sbf|sk-ant)-?[A-Za-z0-9_-]{12,}/g, '[redacted]');
}

/** The error a run ends with when aborted (timeout or client gone), if it was. */
export function abortError(signal: AbortSignal): AppError | undefined {
  if (!signal.aborted) return undefined;
  const reason = signal.reason;
  if (reason instanceof RunTimeout) return new FlowsError('timeout', reason.message, 'timeout');
  if (reason instanceof ClientGone) return new FlowsError('invalid_request', reason.message, 'client_closed');
  return new FlowsError('internal', 'The run was aborted', 'aborted');
}

/** Maps whatever a model call threw onto a 502 that passes the provider's message on without credentials. */
export function providerError(error: unknown, signal: AbortSignal, secrets: Array<string | null>): AppError {
  const aborted = abortError(signal);
  if (aborted) return aborted;
  if (isAppError(error)) return error;
  let cause = error;
  if (RetryError.isInstance(cause)) cause = cause.lastError;
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode ? ` (HTTP ${cause.statusCode})` : '';
    return new FlowsError('upstream_error', scrubSecrets(`Provider error${status}: ${cause.message}`, secrets), 'upstream_error');
  }
  const message = (cause as Error)?.message ?? String(cause);
  return new FlowsError('upstream_error', scrubSecrets(`Provider request failed: ${message}`, secrets), 'upstream_error');
}

/** Any other failure inside the engine: a safe 500 unless it already is a catalogued error. */
export function internalError(error: unknown, signal: AbortSignal): AppError {
  const aborted = abortError(signal);
  if (aborted) return aborted;
  if (isAppError(error)) return error;
  return fromDatabaseError(error) ?? new AppError('internal', 'Internal error while running the flow');
}
