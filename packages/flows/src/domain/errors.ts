import { AppError, type ErrorCode } from '@switchboard/core/errors';

/** One problem with a field, as listed in `error.details`. */
export interface ProblemDetail {
  param: string;
  message: string;
}

/**
 * An AppError carrying the OpenAI-style `code` (e.g. `flow_not_found`) and
 * `param` the flows error shape needs beyond the catalogue code.
 */
export class FlowsError extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    /** The `error.code` sent to the caller. */
    readonly apiCode: string,
    options: { param?: string; details?: unknown; retryAfter?: number; fields?: Record<string, unknown> } = {},
  ) {
    super(code, message, options.details, options.retryAfter);
    this.param = options.param ?? null;
    this.fields = options.fields;
  }

  /** The `error.param` sent to the caller. */
  readonly param: string | null;
  /** Members of `error` beyond the usual ones that a caller acts on (e.g. `latest_version`). */
  readonly fields: Record<string, unknown> | undefined;
}

/** 404 for a flow slug the organization does not have. */
export function flowNotFound(slug: string): FlowsError {
  return new FlowsError('not_found', `Flow "${slug}" not found`, 'flow_not_found', { param: 'slug' });
}

/** 422 `apiCode` listing every problem in `details`; the message is the first problem's, and how many more there are. */
export function invalidWith(apiCode: string, problems: ProblemDetail[]): FlowsError {
  const message =
    problems.length === 1 ? problems[0].message : `${problems[0].message} (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})`;
  return new FlowsError('validation_failed', message, apiCode, { param: problems[0].param, details: problems });
}

/** 422 for a flow definition that cannot be saved; the message names the first problem's node. */
export function invalidFlow(problems: ProblemDetail[]): FlowsError {
  return invalidWith('invalid_flow', problems);
}

/**
 * 409 for a save based on a version that is no longer the flow's latest
 * (`latest` null: the flow no longer exists), so an editor never overwrites
 * another's save without knowing it.
 */
export function versionConflict(slug: string, baseVersion: number, latest: number | null): FlowsError {
  const message =
    latest === null
      ? `Flow "${slug}" does not exist any more (this save was based on version ${baseVersion}); save without "base_version" to create it again`
      : `Flow "${slug}" is at version ${latest}, but this save was based on version ${baseVersion}: load version ${latest} and apply your changes to it, or save without "base_version" to overwrite it`;
  return new FlowsError('conflict', message, 'version_conflict', { fields: { latest_version: latest } });
}

/** 404 for a version number a flow does not have. */
export function versionNotFound(slug: string, version: number): FlowsError {
  return new FlowsError('not_found', `Flow "${slug}" has no version ${version}`, 'version_not_found', { param: 'version' });
}
