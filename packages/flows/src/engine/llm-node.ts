import type { LlmNodeData } from '../domain/flow-definition.ts';
import { usageOf, type Usage } from '../domain/usage.ts';
import { callCost } from '../domain/cost.ts';
import type { NodeContext, NodeResult } from './node-handler.ts';
import { messagesOf, type ChatRequest } from './chat-models.ts';
import { sentMessages } from '../domain/sent-messages.ts';
import { promptText, systemText } from './llm-prompt.ts';
import { isRetryable, providerError } from './run-errors.ts';
import { needsToolLoop, runToolLoop } from './tool-loop.ts';

async function withRetries<T>(retries: number, signal: AbortSignal, call: () => PromiseLike<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= retries || signal.aborted || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}

/**
 * One chat call through the provider's chat model (see chat-models.ts). Streams
 * its tokens as deltas when its text is the reply of a streaming run; the
 * run's abort signal cancels the upstream request.
 */
export async function runLlmNode(context: NodeContext): Promise<NodeResult> {
  if (needsToolLoop(context)) return runToolLoop(context);
  const data = context.node.data as unknown as LlmNodeData;
  const providers = context.providers;
  const model = providers.chat(data.provider, data.model);
  const request: ChatRequest = {
    system: systemText(context),
    conversation: context.conversation,
    prompt: promptText(context),
    temperature: data.temperature,
    maxTokens: data.max_tokens,
    signal: context.signal,
  };
  const messages = messagesOf(request);
  context.recordModelCall(sentMessages('', messages));
  const span = context.trace?.modelCall({
    kind: providers.kindOf(data.provider) ?? '',
    connection: data.provider,
    model: data.model,
    temperature: data.temperature,
    maxTokens: data.max_tokens,
    stream: context.streamReply,
    messages,
  });
  // Counts the call's cost and ends its span.
  const ended = (usage: Usage, finishReason: string, text: string) => {
    const cost = callCost(providers.priceOf(data.provider, data.model), usage);
    context.services.meter.add(cost);
    span?.end({ usage, finishReason, cost, text });
  };
  try {
    if (!context.streamReply) {
      const { text, usage, finishReason } = await withRetries(context.providerRetries, context.signal, () => model.generate(request));
      ended(usage, finishReason, text);
      return { output: { text, usage, finish_reason: finishReason }, usage, text, finishReason };
    }
    const parts = await withRetries(context.providerRetries, context.signal, () => model.stream(request));
    let text = '';
    let usage = usageOf();
    let finishReason = 'stop';
    for await (const part of parts) {
      if (part.type === 'delta') {
        text += part.text;
        context.emit({ type: 'delta', content: part.text });
      } else {
        ({ usage, finishReason } = part);
      }
    }
    if (context.signal.aborted) throw context.signal.reason;
    ended(usage, finishReason, text);
    return { output: { text, usage, finish_reason: finishReason }, usage, text, finishReason, streamed: true };
  } catch (error) {
    const failure = providerError(error, context.signal, [providers.secretOf(data.provider)]);
    span?.fail(failure);
    throw failure;
  }
}
