import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3Usage } from '@ai-sdk/provider';
import { APICallError } from 'ai';
import type { LlmNodeData } from '../domain/flow-definition.ts';
import { renderTemplate } from '../domain/references.ts';
import type { Usage } from '../store/run-store.ts';
import type { NodeContext, NodeResult } from './node-handler.ts';
import { providerError } from './run-errors.ts';
import { needsToolLoop, runToolLoop } from './tool-loop.ts';

/** AI SDK (LanguageModelV3) usage in OpenAI's names. */
export function toUsage(usage: LanguageModelV3Usage | undefined): Usage {
  const prompt = usage?.inputTokens.total ?? 0;
  const completion = usage?.outputTokens.total ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
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

/** An llm node's system text: its rendered `system`, then the caller's system messages ('' when neither). */
export function systemText(context: NodeContext): string {
  const data = context.node.data as unknown as LlmNodeData;
  return [data.system ? renderTemplate(data.system, context.scope) : '', context.callerSystem ?? ''].filter((s) => s !== '').join('\n\n');
}

/** An llm node's rendered prompt ('' without one). */
export function promptText(context: NodeContext): string {
  const data = context.node.data as unknown as LlmNodeData;
  return data.prompt === undefined ? '' : renderTemplate(data.prompt, context.scope);
}

/** The chat call of an llm node as an AI SDK prompt: system, the conversation, the rendered prompt. */
function buildPrompt(context: NodeContext): LanguageModelV3Prompt {
  const system = systemText(context);
  const prompt: LanguageModelV3Prompt = [];
  if (system !== '') prompt.push({ role: 'system', content: system });
  for (const message of context.conversation) {
    prompt.push({ role: message.role, content: [{ type: 'text', text: message.content }] });
  }
  const text = promptText(context);
  if (text !== '' || context.conversation.length === 0) prompt.push({ role: 'user', content: [{ type: 'text', text }] });
  return prompt;
}

async function withRetries<T>(retries: number, signal: AbortSignal, call: () => PromiseLike<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= retries || signal.aborted || !(APICallError.isInstance(error) && error.isRetryable)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}

/**
 * One chat call through the AI SDK provider's language model. A node without
 * tools calls the model's doGenerate/doStream directly: generateText and
 * streamText add milliseconds of per-call overhead and layers of stream
 * transforms that this single call does not need (tool loops use them).
 * Streams its tokens as deltas when its text is the reply of a streaming run;
 * the run's abort signal cancels the upstream request.
 */
export async function runLlmNode(context: NodeContext): Promise<NodeResult> {
  if (needsToolLoop(context)) return runToolLoop(context);
  const data = context.node.data as unknown as LlmNodeData;
  const providers = context.providers;
  const model = providers.model(data.provider, data.model) as LanguageModelV3;
  const options: LanguageModelV3CallOptions = {
    prompt: buildPrompt(context),
    temperature: data.temperature,
    maxOutputTokens: data.max_tokens,
    abortSignal: context.signal,
  };
  const secrets = [providers.secretOf(data.provider)];
  try {
    if (!context.streamReply) {
      const result = await withRetries(context.providerRetries, context.signal, () => model.doGenerate(options));
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      const usage = toUsage(result.usage);
      const finishReason = toFinishReason(result.finishReason.unified);
      return { output: { text, usage, finish_reason: finishReason }, usage, text, finishReason };
    }
    const { stream } = await withRetries(context.providerRetries, context.signal, () => model.doStream({ ...options, includeRawChunks: false }));
    let text = '';
    let usage: Usage = toUsage(undefined);
    let finishReason = 'stop';
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        if (part.type === 'text-delta') {
          if (part.delta === '') continue;
          text += part.delta;
          context.emit({ type: 'delta', content: part.delta });
        } else if (part.type === 'finish') {
          usage = toUsage(part.usage);
          finishReason = toFinishReason(part.finishReason.unified);
        } else if (part.type === 'error') {
          throw part.error;
        }
      }
    } finally {
      reader.releaseLock();
    }
    if (context.signal.aborted) throw context.signal.reason;
    return { output: { text, usage, finish_reason: finishReason }, usage, text, finishReason, streamed: true };
  } catch (error) {
    throw providerError(error, context.signal, secrets);
  }
}
