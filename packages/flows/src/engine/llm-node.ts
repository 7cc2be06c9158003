import { generateText, streamText, type ModelMessage } from 'ai';
import type { LlmNodeData } from '../domain/flow-definition.ts';
import { renderTemplate } from '../domain/references.ts';
import type { Usage } from '../store/run-store.ts';
import type { NodeContext, NodeResult } from './node-handler.ts';
import { providerError } from './run-errors.ts';

/** AI SDK usage in OpenAI's names. */
export function toUsage(usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined): Usage {
  const prompt = usage?.inputTokens ?? 0;
  const completion = usage?.outputTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: usage?.totalTokens ?? prompt + completion };
}

/** AI SDK finish reasons in OpenAI's spelling. */
export function toFinishReason(reason: string | undefined): string {
  switch (reason) {
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    case 'tool-calls':
      return 'tool_calls';
    default:
      return 'stop';
  }
}

/**
 * One chat call through the AI SDK: system prompt, the conversation, the
 * rendered prompt. Streams tokens as deltas when its text is the reply of a
 * streaming run; the run's abort signal cancels the upstream request.
 */
export async function runLlmNode(context: NodeContext): Promise<NodeResult> {
  const data = context.node.data as unknown as LlmNodeData;
  const system = [data.system ? renderTemplate(data.system, context.scope) : '', context.callerSystem ?? ''].filter((s) => s !== '').join('\n\n');
  const messages: ModelMessage[] = context.conversation.map((m) => ({ role: m.role, content: m.content }));
  const prompt = data.prompt === undefined ? '' : renderTemplate(data.prompt, context.scope);
  if (prompt !== '' || messages.length === 0) messages.push({ role: 'user', content: prompt });
  const providers = context.providers;
  const settings = {
    model: providers.model(data.provider, data.model),
    system: system === '' ? undefined : system,
    messages,
    temperature: data.temperature,
    maxOutputTokens: data.max_tokens,
    maxRetries: context.providerRetries,
    abortSignal: context.signal,
  };
  const secrets = [providers.secretOf(data.provider)];
  try {
    if (!context.streamReply) {
      const result = await generateText(settings);
      const usage = toUsage(result.totalUsage);
      const finishReason = toFinishReason(result.finishReason);
      return { output: { text: result.text, usage, finish_reason: finishReason }, usage, text: result.text, finishReason };
    }
    const result = streamText({ ...settings, onError: () => undefined });
    let text = '';
    let usage: Usage = toUsage(undefined);
    let finishReason = 'stop';
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        if (part.text === '') continue;
        text += part.text;
        context.emit({ type: 'delta', content: part.text });
      } else if (part.type === 'finish') {
        usage = toUsage(part.totalUsage);
        finishReason = toFinishReason(part.finishReason);
      } else if (part.type === 'error') {
        throw part.error;
      } else if (part.type === 'abort') {
        throw context.signal.reason ?? new Error('aborted');
      }
    }
    return { output: { text, usage, finish_reason: finishReason }, usage, text, finishReason, streamed: true };
  } catch (error) {
    throw providerError(error, context.signal, secrets);
  }
}
