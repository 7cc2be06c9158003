import type { LanguageModelV3, LanguageModelV3Prompt, LanguageModelV3Usage } from '@ai-sdk/provider';
import type OpenAI from 'openai';
import { APIError, OpenAIError } from 'openai';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ConversationMessage } from '../domain/run-request.ts';
import { usageOf, type Usage } from '../domain/usage.ts';
import { eventStreamText } from './provider-response.ts';

/** One chat call of an llm node without tools: its system text, the conversation, then its prompt. */
export interface ChatRequest {
  /** '' for none. */
  system: string;
  conversation: ConversationMessage[];
  /** The rendered prompt: the last user message ('' for none; sent anyway when the conversation is empty). */
  prompt: string;
  temperature: number | undefined;
  maxTokens: number | undefined;
  signal: AbortSignal;
}

/** A whole answer. */
export interface ChatAnswer {
  text: string;
  usage: Usage;
  /** In OpenAI's spelling. */
  finishReason: string;
}

/** What a streamed answer yields: text deltas (never empty), then the end. */
export type ChatPart = { type: 'delta'; text: string } | ({ type: 'finish' } & Omit<ChatAnswer, 'text'>);

/**
 * A provider's chat model as an llm node without tools uses it. `stream`
 * resolves once the provider has answered with its headers (a failure
 * before then can be retried), and its parts arrive as the provider sends them.
 */
export interface ChatModel {
  generate(request: ChatRequest): Promise<ChatAnswer>;
  stream(request: ChatRequest): Promise<AsyncIterable<ChatPart>>;
}

/** AI SDK (LanguageModelV3) usage in OpenAI's names. */
function toUsage(usage: LanguageModelV3Usage | undefined): Usage {
  return usageOf(usage?.inputTokens.total, usage?.outputTokens.total);
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

/** The request's messages in order: system, the conversation, the prompt. */
export function messagesOf(request: ChatRequest): Array<{ role: 'system' | 'user' | 'assistant'; content: string }> {
  const messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }> = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  messages.push(...request.conversation);
  if (request.prompt !== '' || request.conversation.length === 0) messages.push({ role: 'user', content: request.prompt });
  return messages;
}

/**
 * An AI SDK provider's model (OpenAI, Anthropic), called through its
 * doGenerate/doStream: generateText and streamText add milliseconds of
 * per-call overhead and layers of stream transforms that a call without tools
 * does not need (tool loops use them).
 */
export function sdkChatModel(model: LanguageModelV3): ChatModel {
  const options = (request: ChatRequest) => ({
    prompt: messagesOf(request).map((m) =>
      m.role === 'system' ? m : { role: m.role, content: [{ type: 'text' as const, text: m.content }] },
    ) as LanguageModelV3Prompt,
    temperature: request.temperature,
    maxOutputTokens: request.maxTokens,
    abortSignal: request.signal,
  });
  return {
    async generate(request) {
      const result = await model.doGenerate(options(request));
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return { text, usage: toUsage(result.usage), finishReason: toFinishReason(result.finishReason.unified) };
    },
    async stream(request) {
      const { stream } = await model.doStream({ ...options(request), includeRawChunks: false });
      return (async function* () {
        const reader = stream.getReader();
        try {
          for (;;) {
            const { done, value: part } = await reader.read();
            if (done) return;
            if (part.type === 'text-delta') {
              if (part.delta !== '') yield { type: 'delta', text: part.delta };
            } else if (part.type === 'finish') {
              yield { type: 'finish', usage: toUsage(part.usage), finishReason: toFinishReason(part.finishReason.unified) };
            } else if (part.type === 'error') {
              throw part.error;
            }
          }
        } finally {
          reader.releaseLock();
        }
      })();
    },
  };
}

const OPENAI_FINISH_REASONS = new Set(['stop', 'length', 'content_filter', 'tool_calls']);

/** A Chat Completions finish reason as a run reports it ('stop' for anything unknown, as the AI SDK path does). */
function finishReasonOf(reason: string | null | undefined): string {
  if (reason === 'function_call') return 'tool_calls';
  return reason && OPENAI_FINISH_REASONS.has(reason) ? reason : 'stop';
}

/**
 * An OpenAI-compatible server's model through the official `openai` client.
 * Its streams are read with a plain async iterator: on Node 20 the AI SDK's
 * chain of web streams costs ~50 KiB of memory and ~2× the CPU per streamed
 * call (`bench/`: 1,000 open streams).
 */
export function openaiChatModel(client: OpenAI, model: string): ChatModel {
  const body = (request: ChatRequest) => ({ model, max_tokens: request.maxTokens, temperature: request.temperature, messages: messagesOf(request) });
  return {
    async generate(request) {
      const completion = await client.chat.completions.create(body(request), { signal: request.signal });
      const choice = completion.choices?.[0];
      return {
        text: choice?.message?.content ?? '',
        usage: usageOf(completion.usage?.prompt_tokens, completion.usage?.completion_tokens),
        finishReason: finishReasonOf(choice?.finish_reason),
      };
    },
    async stream(request) {
      // The answer's events are parsed here rather than by the client's own stream (five async generators a
      // token): the client still builds, sends and retries the call and turns an error status into its APIError.
      const response = await client.chat.completions
        .create({ ...body(request), stream: true, stream_options: { include_usage: true } }, { signal: request.signal })
        .asResponse();
      return chatParts(response);
    },
  };
}

/**
 * The parts of a streamed Chat Completions answer, read from its events as
 * the `openai` client reads them: `[DONE]` ends them, a chunk with `error`
 * (or an `error` event) throws the client's APIError, a chunk that is not JSON
 * throws, and an aborted call just ends them (the caller checks its signal).
 * One generator from the body's bytes to the parts: a token crosses one
 * generator's yield, not one per layer (a held stream forwards a token a
 * second, and each yield is a few promise hops).
 */
async function* chatParts(response: Response): AsyncGenerator<ChatPart> {
  const text = answerText(response);
  let events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  let done = false;
  let usage = usageOf();
  let finishReason: string | null | undefined;
  try {
    for (;;) {
      const read = await text.read();
      if (read === null) break;
      parser.feed(read);
      const ready = events;
      events = [];
      for (const event of ready) {
        if (done) continue;
        if (event.data.startsWith('[DONE]')) {
          done = true;
          continue;
        }
        const chunk = JSON.parse(event.data) as OpenAI.Chat.Completions.ChatCompletionChunk & { error?: object; message?: string };
        if (event.event === 'error') throw new APIError(undefined, chunk.error, chunk.message, undefined);
        if (chunk?.error) throw new APIError(undefined, chunk.error, undefined, response.headers);
        if (chunk.usage) usage = usageOf(chunk.usage.prompt_tokens, chunk.usage.completion_tokens);
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        if (choice.delta?.content) yield { type: 'delta', text: choice.delta.content };
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  } finally {
    text.close(done);
  }
  yield { type: 'finish', usage, finishReason: finishReasonOf(finishReason) };
}

/** A streamed answer's text as it arrives, and how to stop reading it (cancelling it unless `finished`). */
interface AnswerText {
  read(): Promise<string | null>;
  close(finished: boolean): void;
}

/**
 * The text of a streamed answer: from the transport itself when the client's fetch is the provider fetch's
 * rawEventStreams (no web stream in between), else from the Response's body.
 */
function answerText(response: Response): AnswerText {
  const raw = eventStreamText(response);
  if (raw) return raw;
  const body = response.body;
  if (!body) throw new OpenAIError('Attempted to iterate over a response with no body');
  const decoder = new TextDecoder();
  const reader = body.getReader();
  return {
    async read() {
      const read = await reader.read();
      return read.done ? null : decoder.decode(read.value, { stream: true });
    },
    close(finished) {
      reader.releaseLock();
      if (!finished) void body.cancel().catch(() => undefined);
    },
  };
}
