import { APICallError, RetryError } from 'ai';
import { APIConnectionError, APIError } from 'openai/error';
import { AppError, fromDatabaseError, isAppError } from '@switchboard/core';
import { FlowsError } from '../domain/errors.ts';
import { ProviderUnreachable } from './http-fetch.ts';

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

/** Abort reason when the instance stops (SIGTERM) and its grace period ended before the run did. */
export class ShuttingDown extends Error {
  constructor() {
    super('The service stopped before the run finished; run it again');
    this.name = 'ShuttingDown';
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
  if (reason instanceof ShuttingDown) return new FlowsError('unavailable', reason.message, 'shutting_down');
  return new FlowsError('internal', 'The run was aborted', 'aborted');
}

/** Maps whatever a model call threw onto a 502 that passes the provider's message on without credentials. */
export function providerError(error: unknown, signal: AbortSignal, secrets: Array<string | null>): AppError {
  const aborted = abortError(signal);
  if (aborted) return aborted;
  if (isAppError(error)) return error;
  let cause = error;
  if (RetryError.isInstance(cause)) cause = cause.lastError;
  // Never reached (the SDKs wrap it: "Cannot connect to API", "Connection error."): said as such, with where.
  const unreachable = unreachableIn(cause);
  if (unreachable) return new FlowsError('upstream_error', scrubSecrets(unreachable.message, secrets), 'upstream_error');
  if (APICallError.isInstance(cause)) return upstreamError(cause.statusCode, cause.message, secrets);
  // The openai client's connection errors say "Connection error."; what failed is their cause.
  if (cause instanceof APIConnectionError) cause = cause.cause ?? cause;
  // The openai client's message starts with the status, which the error names on its own.
  else if (cause instanceof APIError) return upstreamError(cause.status, cause.message.replace(/^\d{3} /, ''), secrets);
  const message = (cause as Error)?.message ?? String(cause);
  return new FlowsError('upstream_error', scrubSecrets(`Provider request failed: ${message}`, secrets), 'upstream_error');
}

/** The ProviderUnreachable an error is or wraps (as its cause, a few levels deep), if any. */
export function unreachableIn(error: unknown): ProviderUnreachable | undefined {
  let current = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof ProviderUnreachable) return current;
    current = current.cause;
  }
  return undefined;
}

function upstreamError(status: number | undefined, message: string, secrets: Array<string | null>): AppError {
  return new FlowsError('upstream_error', scrubSecrets(`Provider error${status ? ` (HTTP ${status})` : ''}: ${message}`, secrets), 'upstream_error');
}

/** Whether a failed provider call may succeed when tried again: no connection, or 408, 409, 429 or 5xx (AI SDK or openai client). */
export function isRetryable(error: unknown): boolean {
  if (APICallError.isInstance(error)) return error.isRetryable;
  if (error instanceof APIConnectionError) return true;
  if (!(error instanceof APIError) || error.status === undefined) return false;
  return error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
}

/** Any other failure inside the engine: a safe 500 unless it already is a catalogued error. */
export function internalError(error: unknown, signal: AbortSignal): AppError {
  const aborted = abortError(signal);
  if (aborted) return aborted;
  if (isAppError(error)) return error;
  return fromDatabaseError(error) ?? new AppError('internal', 'Internal error while running the flow');
}
