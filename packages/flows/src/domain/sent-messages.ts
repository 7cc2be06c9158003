/**
 * What a model call was sent, as a run's trace records it (design/web.md,
 * "The first hour": each run's trace shows the messages after templating,
 * secrets masked). Pure: masking is done by whoever records.
 */

/** One message of a model call, in a shape close to OpenAI's. */
export interface SentMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** An assistant message's tool calls. */
  tool_calls?: Array<{ call_id: string; tool: string; args: unknown }>;
  /** A tool message: the tool and call it answers. */
  tool?: string;
  call_id?: string;
}

/** One model call of a node: the messages it sent, in order. */
export interface ModelCallRecord {
  messages: SentMessage[];
}

/** Longest message text kept in a trace; the rest is counted, not stored (a knowledge base's text can be long). */
export const MAX_SENT_CHARS = 20_000;

/** `text` cut to MAX_SENT_CHARS, saying how much was left out. */
export function clipSent(text: string): string {
  if (text.length <= MAX_SENT_CHARS) return text;
  return `${text.slice(0, MAX_SENT_CHARS)}… (${text.length - MAX_SENT_CHARS} more characters)`;
}

type Part = { type?: string; text?: unknown; toolCallId?: unknown; toolName?: unknown; input?: unknown; output?: unknown };
type LooseMessage = { role: string; content: unknown };

const textOf = (parts: Part[]) =>
  parts
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('');

/** A tool result's value as text: the AI SDK wraps it as {type: 'json'|'text'|'error-text'|…, value}. */
function resultText(output: unknown): string {
  const wrapped = output as { type?: string; value?: unknown } | undefined;
  const value = wrapped && typeof wrapped === 'object' && 'value' in wrapped ? wrapped.value : output;
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

/**
 * Messages of the AI SDK's shape (ModelMessage: string content or parts of
 * text, tool calls and tool results) as the trace records them, with the
 * system text first when given.
 */
export function sentMessages(system: string, messages: readonly LooseMessage[]): SentMessage[] {
  const out: SentMessage[] = [];
  if (system !== '') out.push({ role: 'system', content: clipSent(system) });
  for (const message of messages) {
    const role = message.role as SentMessage['role'];
    if (typeof message.content === 'string') {
      out.push({ role, content: clipSent(message.content) });
      continue;
    }
    const parts = Array.isArray(message.content) ? (message.content as Part[]) : [];
    if (role === 'tool') {
      for (const part of parts) {
        if (part.type !== 'tool-result') continue;
        out.push({ role: 'tool', tool: String(part.toolName), call_id: String(part.toolCallId), content: clipSent(resultText(part.output)) });
      }
      continue;
    }
    const entry: SentMessage = { role, content: clipSent(textOf(parts)) };
    const calls = parts.filter((p) => p.type === 'tool-call').map((p) => ({ call_id: String(p.toolCallId), tool: String(p.toolName), args: p.input ?? {} }));
    if (calls.length > 0) entry.tool_calls = calls;
    out.push(entry);
  }
  return out;
}
