import { decodeJson } from '../domain/python-json.ts';
import { jsonInvalidIssue } from '../domain/validation.ts';
import { validationFailed } from './error-handler.ts';

/** The request body as raw bytes (every content type is read as a buffer, for signatures and pydantic-style errors). */
export function rawBody(body: unknown): Buffer | undefined {
  return Buffer.isBuffer(body) && body.length > 0 ? body : undefined;
}

/** The media type of a request without parameters, lower case; undefined when absent. */
export function mediaType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  return contentType.split(';')[0].trim().toLowerCase();
}

/** True for `application/json` and `application/*+json`, the types FastAPI reads as JSON. */
export function isJsonType(type: string | undefined): boolean {
  if (type === undefined) return false;
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Reads a body the way FastAPI does: JSON when the type says so (or is absent), else the raw text; undefined without one. Malformed JSON is pydantic's 422. */
export function decodeBody(body: unknown, contentType: string | undefined): unknown {
  const raw = rawBody(body);
  if (raw === undefined) return undefined;
  const type = mediaType(contentType);
  const text = raw.toString('utf8');
  if (type !== undefined && !isJsonType(type)) return text;
  const decoded = decodeJson(text);
  if (!decoded.ok) throw validationFailed([jsonInvalidIssue(decoded.error.msg, decoded.error.pos)]);
  return decoded.value;
}
