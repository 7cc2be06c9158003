/**
 * Request validation that answers exactly like FastAPI/pydantic v2 (type,
 * loc, msg, input, ctx), because clients of the original service parse it.
 */
import { normalizePhone } from './phone.ts';

/** One entry of a 422 `detail` array. */
export interface ValidationIssue {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Query of the message listing. */
export interface ListQuery {
  limit: number;
  sinceId: number;
  direction: 'inbound' | 'outbound' | null;
  sim: string | null;
}

/** Body of POST /send. */
export interface SendRequest {
  to: string;
  body: string;
  sim: string | null;
}

/** Validated value or the list of problems. */
export type Validated<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** Largest `limit` of a listing. */
export const MAX_LIMIT = 1000;
/** Longest text a message may carry (10 concatenated GSM-7 parts is 1530; providers cap at 1600). */
export const MAX_BODY_LENGTH = 1600;

type Query = Record<string, string | string[] | undefined>;

/** Starlette keeps the last value of a repeated query parameter. */
export function last(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** An integer query parameter between `min` and `max`, or a pydantic issue. */
export function parseInteger(loc: Array<string | number>, raw: string, min: number, max: number | undefined, issues: ValidationIssue[]): number | undefined {
  const trimmed = raw.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) {
    issues.push({ type: 'int_parsing', loc, msg: 'Input should be a valid integer, unable to parse string as an integer', input: raw });
    return undefined;
  }
  const value = Number(trimmed);
  if (value < min) {
    issues.push({ type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${min}`, input: raw, ctx: { ge: min } });
    return undefined;
  }
  if (max !== undefined && value > max) {
    issues.push({ type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${max}`, input: raw, ctx: { le: max } });
    return undefined;
  }
  return value;
}

/** Validates `limit`, `since_id`, `direction` and `sim` of a listing, in FastAPI's declaration order. */
export function validateListQuery(query: Query): Validated<ListQuery> {
  const issues: ValidationIssue[] = [];
  const rawLimit = last(query.limit);
  const rawSince = last(query.since_id);
  const rawDirection = last(query.direction);
  const rawSim = last(query.sim);
  const limit = rawLimit === undefined ? 100 : parseInteger(['query', 'limit'], rawLimit, 1, MAX_LIMIT, issues);
  // since_id has no upper bound, but past 2^53 ids cannot exist: clamp instead of losing precision.
  const since = rawSince === undefined ? 0 : parseInteger(['query', 'since_id'], rawSince, 0, undefined, issues);
  const direction = rawDirection === undefined ? null : parseDirection(rawDirection, issues);
  if (rawSim !== undefined) rejectNul(['query', 'sim'], rawSim, issues);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { limit: limit!, sinceId: Math.min(since!, Number.MAX_SAFE_INTEGER), direction, sim: rawSim ?? null } };
}

/** The `direction` query parameter: 'inbound' or 'outbound'; anything else is FastAPI's enum issue (and null). */
export function parseDirection(raw: string, issues: ValidationIssue[]): ListQuery['direction'] {
  if (raw === 'inbound' || raw === 'outbound') return raw;
  issues.push({
    type: 'enum',
    loc: ['query', 'direction'],
    msg: "Input should be 'inbound' or 'outbound'",
    input: raw,
    ctx: { expected: "'inbound' or 'outbound'" },
  });
  return null;
}

/** PostgreSQL text cannot hold U+0000: a SIM holding one is refused here on every database, rather than failing the insert or query. */
export function rejectNul(loc: ['body' | 'query', string], value: string, issues: ValidationIssue[]): void {
  if (value.includes('\u0000')) {
    issues.push({ type: 'value_error', loc, msg: `Value error, '${loc[1]}' must not contain the NUL character (U+0000)`, input: value, ctx: { error: {} } });
  }
}

/** A string field of a body: undefined when absent (a `missing` issue when required), null when null and optional. */
export function stringField(body: Record<string, unknown>, name: string, required: boolean, issues: ValidationIssue[]): string | null | undefined {
  if (!(name in body) || body[name] === undefined) {
    if (required) issues.push({ type: 'missing', loc: ['body', name], msg: 'Field required', input: body });
    return undefined;
  }
  const value = body[name];
  if (value === null && !required) return null;
  if (typeof value !== 'string') {
    issues.push({ type: 'string_type', loc: ['body', name], msg: 'Input should be a valid string', input: value });
    return undefined;
  }
  return value;
}

/**
 * Validates a decoded /send body: `to` a phone number, `body` 1 to 1600
 * characters, `sim` an optional string. `undefined` means no body was sent.
 */
export function validateSendBody(body: unknown): Validated<SendRequest> {
  // FastAPI treats no body and a JSON `null` body alike: the required body is missing.
  if (body === undefined || body === null) return { ok: false, issues: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      issues: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body }],
    };
  }
  const record = body as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const to = stringField(record, 'to', true, issues);
  let phone: string | undefined;
  if (typeof to === 'string') {
    phone = normalizePhone(to);
    if (!phone) {
      issues.push({
        type: 'value_error',
        loc: ['body', 'to'],
        msg: "Value error, 'to' must be a phone number: '+' followed by 3 to 15 digits (spaces, dashes and parentheses are ignored)",
        input: to,
        ctx: { error: {} },
      });
    }
  }
  const text = stringField(record, 'body', true, issues);
  if (typeof text === 'string') {
    const length = [...text].length;
    if (length < 1) {
      issues.push({ type: 'string_too_short', loc: ['body', 'body'], msg: 'String should have at least 1 character', input: text, ctx: { min_length: 1 } });
    } else if (length > MAX_BODY_LENGTH) {
      issues.push({
        type: 'string_too_long',
        loc: ['body', 'body'],
        msg: `String should have at most ${MAX_BODY_LENGTH} characters`,
        input: text,
        ctx: { max_length: MAX_BODY_LENGTH },
      });
    }
    // Any other text is kept exactly as sent, U+0000 included (see store/message-body.ts).
  }
  const sim = stringField(record, 'sim', false, issues);
  if (typeof sim === 'string') rejectNul(['body', 'sim'], sim, issues);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { to: phone!, body: text as string, sim: sim ?? null } };
}

/** The 422 entry FastAPI writes for a body that is not JSON. */
export function jsonInvalidIssue(msg: string, pos: number): ValidationIssue {
  return { type: 'json_invalid', loc: ['body', pos], msg: 'JSON decode error', input: {}, ctx: { error: msg } };
}
