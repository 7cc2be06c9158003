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
  return type === 'application/json' || (type !== undefined && type.startsWith('application/') && type.endsWith('+json'));
}
