/** The wire shapes of a run's answer (spec: ChatCompletion; design: chunks, JSON Lines). Pure. */
import type { Usage } from './usage.ts';
import type { OutputFormat } from './flow-definition.ts';

/** The model name every flow answers as. */
export const FLOW_MODEL = 'service-flow';

/** OpenAI's ChatCompletion object. */
export function chatCompletion(id: string, created: number, content: string, finishReason: string, usage: Usage): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion',
    created,
    model: FLOW_MODEL,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
    usage,
  };
}

/** One `chat.completion.chunk`; the first carries the role, the last the finish reason and usage. */
export function chatChunk(
  id: string,
  created: number,
  delta: { role?: 'assistant'; content?: string },
  finishReason: string | null,
  usage?: Usage,
): Record<string, unknown> {
  const chunk: Record<string, unknown> = {
    id,
    object: 'chat.completion.chunk',
    created,
    model: FLOW_MODEL,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  if (usage) chunk.usage = usage;
  return chunk;
}

/** What the non-streaming call returns (and JSON Lines' `done.output` carries), by output format. */
export function runOutput(
  format: OutputFormat,
  ids: { completionId: string; created: number },
  text: string,
  value: unknown,
  finishReason: string,
  usage: Usage,
): unknown {
  if (format === 'raw') return text;
  if (format === 'json_template') return value;
  return chatCompletion(ids.completionId, ids.created, text, finishReason, usage);
}

/** The reply as chat content, whatever the format: a json_template becomes its JSON text. */
export function replyContent(format: OutputFormat, text: string, value: unknown): string {
  return format === 'json_template' ? JSON.stringify(value) : text;
}
