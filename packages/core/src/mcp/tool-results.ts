import type { CallToolResult } from '@modelcontextprotocol/server';
import { ERROR_META_KEY } from './protocol-eras.ts';

/** A tool's success: its JSON as `structuredContent` and the same JSON as text (for clients that read only text). */
export function toolResult(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

/**
 * A tool's failure: `isError` with a message that says what to do, and no `structuredContent` (SDK 1.x clients
 * check it against the tool's `outputSchema` even on errors, and then throw the message away); the code and
 * message for programs go in `_meta` under `dev.switchboard/error` (with the details a REST error carries, if any).
 */
export function toolFailure(code: string, message: string, details?: unknown): CallToolResult {
  const error = details === undefined ? { code, message } : { code, message, details };
  return { isError: true, content: [{ type: 'text', text: message }], _meta: { [ERROR_META_KEY]: error } };
}
