import type { AppError, ErrorCode } from '@switchboard/core/errors';
import { FlowsError } from './errors.ts';

/** OpenAI's error body: `{"error": {message, type, param, code, details?}}`. */
export interface ApiErrorBody {
  error: { message: string; type: string; param: string | null; code: string; details?: unknown; [field: string]: unknown };
}

const TYPES: Record<ErrorCode, [type: string, code: string]> = {
  invalid_request: ['invalid_request_error', 'invalid_request'],
  invalid_json: ['invalid_request_error', 'invalid_json'],
  unauthorized: ['authentication_error', 'invalid_api_key'],
  invalid_credentials: ['authentication_error', 'invalid_credentials'],
  not_signed_in: ['authentication_error', 'not_signed_in'],
  forbidden: ['permission_error', 'permission_denied'],
  insufficient_scope: ['permission_error', 'insufficient_scope'],
  not_found: ['not_found_error', 'not_found'],
  conflict: ['invalid_request_error', 'conflict'],
  payload_too_large: ['invalid_request_error', 'body_too_large'],
  unsupported_media_type: ['invalid_request_error', 'unsupported_media_type'],
  validation_failed: ['invalid_request_error', 'invalid_input'],
  rate_limited: ['rate_limit_error', 'rate_limit_exceeded'],
  internal: ['api_error', 'internal_error'],
  upstream_error: ['api_error', 'upstream_error'],
  unavailable: ['api_error', 'unavailable'],
  timeout: ['api_error', 'timeout'],
};

/** The body an AppError becomes, in OpenAI's shape (design/flows.md, Errors). */
export function presentError(error: AppError): ApiErrorBody {
  const [type, defaultCode] = TYPES[error.code] ?? TYPES.internal;
  const body: ApiErrorBody['error'] = {
    message: error.message,
    type,
    param: error instanceof FlowsError ? error.param : null,
    code: error instanceof FlowsError ? error.apiCode : defaultCode,
  };
  if (error.details !== undefined) body.details = error.details;
  if (error instanceof FlowsError && error.fields) Object.assign(body, error.fields);
  return { error: body };
}
