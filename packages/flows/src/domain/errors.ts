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
    options: { param?: string; details?: unknown; retryAfter?: number } = {},
  ) {
    super(code, message, options.details, options.retryAfter);
    this.param = options.param ?? null;
  }

  /** The `error.param` sent to the caller. */
  readonly param: string | null;
}

/** 404 for a flow slug the organization does not have. */
export function flowNotFound(slug: string): FlowsError {
  return new FlowsError('not_found', `Flow "${slug}" not found`, 'flow_not_found', { param: 'slug' });
}

/** 422 for a flow definition that cannot be saved; the message names the first problem's node. */
export function invalidFlow(problems: ProblemDetail[]): FlowsError {
  const message = problems.length === 1 ? problems[0].message : `${problems[0].message} (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})`;
  return new FlowsError('validation_failed', message, 'invalid_flow', { param: problems[0].param, details: problems });
}
