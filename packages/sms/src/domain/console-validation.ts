/**
 * Validation of the console's endpoints (README, "Console API"), worded as pydantic v2 words it, like the
 * rest of the service's API: the same 422 shape for every endpoint.
 */
import type { Direction } from './message.ts';
import { GATEWAY_DRIVERS, PLAIN_FIELDS, SECRET_FIELDS, type GatewayDriver, type GatewayField } from './gateway-fields.ts';
import { normalizePhone } from './phone.ts';
import { MAX_BODY_LENGTH, last, parseDirection, parseInteger, rejectNul, stringField, type Validated, type ValidationIssue } from './validation.ts';

type Query = Record<string, string | string[] | undefined>;

/** Query of the conversation list and of a thread. */
export interface ConsoleQuery {
  limit: number;
  before: number | null;
  sim: string | null;
  direction: Direction | null;
}

/** Largest page of conversations or messages. */
export const MAX_CONSOLE_LIMIT = 200;

/** Validates `limit` (1 to 200, default 50), `before` (an id ≥ 1), `sim` and `direction`. */
export function validateConsoleQuery(query: Query): Validated<ConsoleQuery> {
  const issues: ValidationIssue[] = [];
  const rawLimit = last(query.limit);
  const rawBefore = last(query.before);
  const rawDirection = last(query.direction);
  const rawSim = last(query.sim);
  const limit = rawLimit === undefined ? 50 : parseInteger(['query', 'limit'], rawLimit, 1, MAX_CONSOLE_LIMIT, issues);
  const before = rawBefore === undefined ? null : parseInteger(['query', 'before'], rawBefore, 1, undefined, issues);
  // An empty `direction` is the console's "Both directions".
  const direction = rawDirection === undefined || rawDirection === '' ? null : parseDirection(rawDirection, issues);
  if (rawSim !== undefined) rejectNul(['query', 'sim'], rawSim, issues);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { limit: limit!, before: before === null ? null : Math.min(before!, Number.MAX_SAFE_INTEGER), sim: rawSim || null, direction } };
}

/** FastAPI's answer for a missing body or one that is not an object; undefined when `body` is an object. */
function objectBody(body: unknown): ValidationIssue | undefined {
  if (body === undefined || body === null) return { type: 'missing', loc: ['body'], msg: 'Field required', input: null };
  if (typeof body !== 'object' || Array.isArray(body))
    return { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body };
  return undefined;
}

function lengthIssue(name: string, value: string, min: number, max: number): ValidationIssue | undefined {
  const length = [...value].length;
  if (length < min)
    return {
      type: 'string_too_short',
      loc: ['body', name],
      msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`,
      input: value,
      ctx: { min_length: min },
    };
  if (length > max)
    return { type: 'string_too_long', loc: ['body', name], msg: `String should have at most ${max} characters`, input: value, ctx: { max_length: max } };
  return undefined;
}

function phoneIssue(name: string, value: string): ValidationIssue {
  return {
    type: 'value_error',
    loc: ['body', name],
    msg: `Value error, '${name}' must be a phone number: '+' followed by 3 to 15 digits (spaces, dashes and parentheses are ignored)`,
    input: value,
    ctx: { error: {} },
  };
}

/** A text field of 1 to `max` characters without U+0000 (PostgreSQL text cannot hold it). */
function textField(record: Record<string, unknown>, name: string, required: boolean, max: number, issues: ValidationIssue[]): string | null | undefined {
  const value = stringField(record, name, required, issues);
  if (typeof value !== 'string') return value;
  const problem = lengthIssue(name, value, required ? 1 : 0, max);
  if (problem) issues.push(problem);
  rejectNul(['body', name], value, issues);
  return problem ? undefined : value;
}

/** Body of POST …/keys: `{"name"}`, 1 to 100 characters. */
export function validateKeyBody(body: unknown): Validated<{ name: string }> {
  const wrong = objectBody(body);
  if (wrong) return { ok: false, issues: [wrong] };
  const issues: ValidationIssue[] = [];
  const name = textField(body as Record<string, unknown>, 'name', true, 100, issues);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { name: name as string } };
}

/** Body of POST …/conversations/{peer}/read: `{"up_to_id"}`, the last message read (an integer ≥ 1). */
export function validateReadBody(body: unknown): Validated<{ upToId: number }> {
  const wrong = objectBody(body);
  if (wrong) return { ok: false, issues: [wrong] };
  const record = body as Record<string, unknown>;
  const value = record.up_to_id;
  if (value === undefined) return { ok: false, issues: [{ type: 'missing', loc: ['body', 'up_to_id'], msg: 'Field required', input: body }] };
  if (typeof value !== 'number' || !Number.isInteger(value))
    return { ok: false, issues: [{ type: 'int_type', loc: ['body', 'up_to_id'], msg: 'Input should be a valid integer', input: value }] };
  if (value < 1)
    return {
      ok: false,
      issues: [{ type: 'greater_than_equal', loc: ['body', 'up_to_id'], msg: 'Input should be greater than or equal to 1', input: value, ctx: { ge: 1 } }],
    };
  return { ok: true, value: { upToId: Math.min(value, Number.MAX_SAFE_INTEGER) } };
}

/** Body of PATCH …/sims/{sim}: `label` (up to 100 characters) and `phone_number` (a phone number), each optional, null clears it. */
export function validateSimBody(body: unknown): Validated<{ label?: string | null; phoneNumber?: string | null }> {
  const wrong = objectBody(body);
  if (wrong) return { ok: false, issues: [wrong] };
  const record = body as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const label = textField(record, 'label', false, 100, issues);
  const raw = textField(record, 'phone_number', false, 40, issues);
  let phoneNumber: string | null | undefined = raw;
  if (typeof raw === 'string') {
    phoneNumber = raw.trim() === '' ? null : normalizePhone(raw);
    if (phoneNumber === undefined) issues.push(phoneIssue('phone_number', raw));
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { ...(label !== undefined ? { label: label || null } : {}), ...(phoneNumber !== undefined ? { phoneNumber } : {}) } };
}

/** Body of POST …/gateway/test: `to` (a phone number) and an optional `body` (default: a test text). */
export function validateTestBody(body: unknown): Validated<{ to: string; body: string | null }> {
  const wrong = objectBody(body);
  if (wrong) return { ok: false, issues: [wrong] };
  const record = body as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const to = stringField(record, 'to', true, issues);
  const phone = typeof to === 'string' ? normalizePhone(to) : undefined;
  if (typeof to === 'string' && !phone) issues.push(phoneIssue('to', to));
  const text = textField(record, 'body', false, MAX_BODY_LENGTH, issues);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { to: phone!, body: text || null } };
}

/** Body of PUT …/gateway: the driver, and the settings to change (see gateway-fields.ts mergeSettings). */
export interface GatewayChange {
  driver: GatewayDriver;
  settings: Partial<Record<GatewayField, string | null>>;
}

/** Validates a gateway change: `driver` one of the drivers, each setting a string or null, `url` an http(s) URL. */
export function validateGatewayBody(body: unknown): Validated<GatewayChange> {
  const wrong = objectBody(body);
  if (wrong) return { ok: false, issues: [wrong] };
  const record = body as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const driver = stringField(record, 'driver', true, issues);
  const expected = GATEWAY_DRIVERS.map((name) => `'${name}'`);
  const words = `${expected.slice(0, -1).join(', ')} or ${expected[expected.length - 1]}`;
  if (typeof driver === 'string' && !(GATEWAY_DRIVERS as readonly string[]).includes(driver)) {
    issues.push({ type: 'enum', loc: ['body', 'driver'], msg: `Input should be ${words}`, input: driver, ctx: { expected: words } });
  }
  const settings: Partial<Record<GatewayField, string | null>> = {};
  for (const name of [...PLAIN_FIELDS, ...SECRET_FIELDS]) {
    const value = textField(record, name, false, 2000, issues);
    if (value !== undefined) settings[name] = value;
  }
  const url = settings.url;
  if (url) {
    let valid = false;
    try {
      valid = ['http:', 'https:'].includes(new URL(url).protocol);
    } catch {
      valid = false;
    }
    if (!valid)
      issues.push({ type: 'value_error', loc: ['body', 'url'], msg: "Value error, 'url' must be an http:// or https:// URL", input: url, ctx: { error: {} } });
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { driver: driver as GatewayDriver, settings } };
}
