import { jsonSchema, stepCountIs, streamText, tool, type LanguageModel, type ModelMessage, type ToolSet as AiToolSet } from 'ai';
import type { LlmNodeData } from '../domain/flow-definition.ts';
import { usageOf } from '../domain/usage.ts';
import { callCost } from '../domain/cost.ts';
import type { ModelCallTrace, ToolCallTrace } from '../tracing/run-trace.ts';

/** Runs a tool call inside its span (if traced): the span ends with the result, or the error the model will read. */
async function traced(span: ToolCallTrace | undefined, call: () => Promise<unknown>): Promise<unknown> {
  if (!span) return call();
  try {
    const result = await call();
    span.end({ result });
    return result;
  } catch (error) {
    span.end({ error: errorText(error) });
    throw error;
  }
}
import type { ConversationMessage, NodeContext, NodeResult } from './node-handler.ts';
import { toFinishReason } from './chat-models.ts';
import { promptText, systemText } from './llm-prompt.ts';
import { providerError } from './run-errors.ts';
import type { ToolSet } from './flow-tool.ts';
import { buildTools } from './tool-nodes.ts';
import { sentMessages } from '../domain/sent-messages.ts';

const DEFAULT_MAX_STEPS = 5;

/** One tool call as the run trace records it. */
export interface TraceToolCall {
  call_id: string;
  tool: string;
  node: string;
  args: unknown;
  result?: unknown;
  error?: string;
}

function sessionOf(metadata: Record<string, unknown>): string | undefined {
  const id = metadata.session_id;
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number') return String(id);
  return undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
}

/** True when an llm node needs more than one plain model call: tools wired into it, or memory. */
export function needsToolLoop(context: NodeContext): boolean {
  const data = context.node.data as unknown as LlmNodeData;
  return (context.flow.tools.toolsOf.get(context.node.id)?.length ?? 0) > 0 || data.memory !== undefined;
}

/**
 * An llm node with tools and/or memory, through the AI SDK's streamText: the
 * model may call the wired tools (several at once: they run concurrently) for
 * up to `max_steps` steps. Every call and result goes to the stream
 * (`tool_call`, `tool_result`) and the trace; a tool that throws (or is
 * refused) gives the model the error as its result, and the run goes on.
 * With `memory` and `metadata.session_id`, the session's last `window`
 * messages come before the prompt, and the prompt and answer are stored after.
 */
export async function runToolLoop(context: NodeContext): Promise<NodeResult> {
  const data = context.node.data as unknown as LlmNodeData;
  const services = context.services;
  const model = context.providers.model(data.provider, data.model) as LanguageModel;
  const system = systemText(context);
  const prompt = promptText(context);
  const session = data.memory ? sessionOf(context.scope.metadata) : undefined;
  const remembered: ConversationMessage[] = session ? await services.memory.recent(services.orgId, services.flowSlug, session, data.memory!.window) : [];
  const messages: ModelMessage[] = [...remembered, ...context.conversation].map((m) => ({ role: m.role, content: m.content }));
  if (prompt !== '' || messages.length === 0) messages.push({ role: 'user', content: prompt });

  let toolSet: ToolSet | undefined;
  const calls = new Map<string, TraceToolCall>();
  const order: TraceToolCall[] = [];
  const secrets = [context.providers.secretOf(data.provider)];
  let answer: NodeResult & { text: string };
  // The span of the model call in progress (one per step), when runs are traced.
  let stepSpan: ModelCallTrace | undefined;
  try {
    toolSet = await buildTools(context, services);
    const tools: AiToolSet = {};
    const nodeOf = new Map<string, string>();
    for (const flowTool of toolSet.tools) {
      nodeOf.set(flowTool.name, flowTool.node);
      tools[flowTool.name] = tool({
        description: flowTool.description,
        inputSchema: jsonSchema(flowTool.parameters as Parameters<typeof jsonSchema>[0]),
        execute: (args, { abortSignal, toolCallId }) =>
          traced(context.trace?.toolCall(flowTool.name, toolCallId, args), () =>
            flowTool.call((args ?? {}) as Record<string, unknown>, abortSignal ?? context.signal),
          ),
      });
    }
    const result = streamText({
      model,
      system: system === '' ? undefined : system,
      messages,
      tools: toolSet.tools.length > 0 ? tools : undefined,
      stopWhen: stepCountIs(data.max_steps ?? DEFAULT_MAX_STEPS),
      // Called before each model call with what it sends: the trace shows it.
      prepareStep: ({ messages: sending }) => {
        context.recordModelCall(sentMessages(system, sending));
        stepSpan = context.trace?.modelCall({
          kind: context.providers.kindOf(data.provider) ?? '',
          connection: data.provider,
          model: data.model,
          temperature: data.temperature,
          maxTokens: data.max_tokens,
          stream: true,
          system: system === '' ? undefined : system,
          messages: sending,
        });
        return undefined;
      },
      temperature: data.temperature,
      maxOutputTokens: data.max_tokens,
      abortSignal: context.signal,
      maxRetries: context.providerRetries,
    });
    let usage = usageOf();
    let finishReason = 'stop';
    // Text of every step: a model may say something before calling tools; the reply is all of it, steps joined by a blank line.
    const stepTexts: string[] = [];
    let stepText = '';
    let streamed = false;
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'start-step':
          if (stepText !== '') stepTexts.push(stepText);
          stepText = '';
          break;
        case 'text-delta': {
          if (part.text === '') break;
          const separator = stepText === '' && stepTexts.length > 0 ? '\n\n' : '';
          stepText += part.text;
          if (context.streamReply) {
            streamed = true;
            context.emit({ type: 'delta', content: separator + part.text });
          }
          break;
        }
        case 'tool-call': {
          const entry: TraceToolCall = { call_id: part.toolCallId, tool: part.toolName, node: nodeOf.get(part.toolName) ?? '', args: part.input };
          calls.set(part.toolCallId, entry);
          order.push(entry);
          context.emit({ type: 'tool_call', node: context.node.id, tool: part.toolName, call_id: part.toolCallId, args: part.input });
          break;
        }
        case 'tool-result': {
          const entry = calls.get(part.toolCallId);
          if (entry) entry.result = part.output;
          context.emit({ type: 'tool_result', node: context.node.id, tool: part.toolName, call_id: part.toolCallId, result: part.output });
          break;
        }
        case 'tool-error': {
          const message = errorText(part.error);
          const entry = calls.get(part.toolCallId);
          if (entry) entry.error = message;
          context.emit({ type: 'tool_result', node: context.node.id, tool: part.toolName, call_id: part.toolCallId, error: message });
          break;
        }
        case 'finish-step': {
          // Each step is one model call: priced as it ends, so a loop that fails later still counts what it spent.
          const stepUsage = usageOf(part.usage.inputTokens, part.usage.outputTokens);
          const cost = callCost(context.providers.priceOf(data.provider, data.model), stepUsage);
          services.meter.add(cost);
          stepSpan?.end({ usage: stepUsage, finishReason: toFinishReason(part.finishReason), responseModel: part.response.modelId, cost, text: stepText });
          stepSpan = undefined;
          break;
        }
        case 'finish': {
          usage = usageOf(part.totalUsage.inputTokens, part.totalUsage.outputTokens);
          finishReason = toFinishReason(part.finishReason);
          break;
        }
        case 'error':
          throw part.error;
        case 'abort':
          throw context.signal.reason ?? new Error('aborted');
        default:
          break;
      }
    }
    if (context.signal.aborted) throw context.signal.reason;
    if (stepText !== '') stepTexts.push(stepText);
    const text = stepTexts.join('\n\n');
    const toolCalls = order.length > 0 ? order : undefined;
    answer = { output: { text, usage, finish_reason: finishReason }, usage, text, finishReason, toolCalls, streamed };
  } catch (error) {
    const failure = providerError(error, context.signal, secrets);
    stepSpan?.fail(failure);
    throw failure;
  } finally {
    await toolSet?.close();
  }
  // Outside the provider's try: a failure to store the exchange is not an upstream error.
  if (session) {
    await services.memory.append(services.orgId, services.flowSlug, session, [
      { role: 'user', content: prompt },
      { role: 'assistant', content: answer.text },
    ]);
  }
  return answer;
}
