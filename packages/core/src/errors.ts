/** The catalogue of error codes every service shares; each service maps them onto its own error shape. */
export const ERROR_CODES = {
  invalid_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  /** Sign-in with a wrong email or password (the same for both). */
  invalid_credentials: 401,
  /** A web UI request without a valid session: never signed in, signed out, or expired. */
  not_signed_in: 401,
  forbidden: 403,
  /** A valid token whose scope or access level does not allow the call (RFC 6750 §3.1): a read token writing. */
  insufficient_scope: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  upstream_error: 502,
  unavailable: 503,
  timeout: 504,
} as const;

/** One of the catalogued error codes. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** An error whose message is safe to show to the caller. */
export class AppError extends Error {
  /** HTTP status the code maps to. */
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Structured extras (valid values, per-field problems) the transport may pass on. */
    readonly details?: unknown,
    /** Seconds a rate-limited caller should wait. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code];
  }
}

/** True for an AppError thrown anywhere (even from another copy of this module). */
export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError || (error instanceof Error && error.name === 'AppError' && 'code' in error && 'status' in error);
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message: string;
}

/**
 * The caller's error behind a failed query, if it was one: PostgreSQL text
 * cannot hold U+0000 (SQLite stores it) and refuses it with SQLSTATE 22021,
 * whichever path parameter, field or input carried it.
 */
export function fromDatabaseError(error: unknown): AppError | undefined {
  if ((error as { code?: unknown } | null)?.code === '22021') return new AppError('invalid_request', 'Text must not contain NUL characters (U+0000)');
  const unavailable = databaseUnavailable(error);
  if (unavailable) return new AppError('unavailable', DATABASE_UNAVAILABLE_MESSAGES[unavailable], undefined, DATABASE_RETRY_AFTER_SECONDS);
  return undefined;
}

/** Seconds a caller is told to wait (`Retry-After`) when the database cannot answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Why the database cannot serve a request: it is out of reach (PostgreSQL), or it cannot be written (SQLite's disk). */
export type DatabaseFault = 'unreachable' | 'disk_full' | 'read_only';

const DATABASE_UNAVAILABLE_MESSAGES: Record<DatabaseFault, string> = {
  unreachable: 'The database is unavailable; retry shortly.',
  disk_full: 'The database cannot store anything more: its disk is full. Reads still work; retry writes later.',
  read_only: 'The database is read-only (DATA_DIR cannot be written). Reads still work; retry writes later.',
};

// Node's socket errors when a database connection is refused, reset or unreachable.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
// PostgreSQL: class 08 (connection exception), the server shutting down or starting (57P01-57P03), too many connections.
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;
// pg's own errors for a lost connection, a connect timeout and a client that lost its connection earlier.
const PG_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Connection closed)/;

/**
 * The kind of database fault behind an error (following `cause`), or
 * undefined when the error is something else. These are the faults a caller
 * should retry after: answered 503, never 500.
 */
export function databaseUnavailable(error: unknown): DatabaseFault | undefined {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (code === 'SQLITE_FULL') return 'disk_full';
      if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR')) return 'read_only';
      if (SOCKET_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code)) return 'unreachable';
    }
    if (typeof message === 'string' && PG_LOST.test(message)) return 'unreachable';
  }
  return undefined;
}

/**
 * Maps errors Fastify raises itself (body too large, bad JSON, unsupported
 * media type) and the database errors a caller's input causes onto the
 * catalogue, so no service answers them with a 500.
 */
export function fromFrameworkError(error: unknown): AppError | undefined {
  if (isAppError(error)) return error;
  const fromDatabase = fromDatabaseError(error);
  if (fromDatabase) return fromDatabase;
  const e = error as FastifyLikeError;
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', `Malformed JSON body: ${e.message}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', e.message);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_request', 'Content-Length does not match the body');
  }
  if (error instanceof SyntaxError) return new AppError('invalid_json', `Malformed JSON body: ${error.message}`);
  if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    const code = (Object.keys(ERROR_CODES) as ErrorCode[]).find((c) => ERROR_CODES[c] === e.statusCode) ?? 'invalid_request';
    return new AppError(code, e.message);
  }
  return undefined;
}
