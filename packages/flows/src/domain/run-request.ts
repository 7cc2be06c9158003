import type { InputVariable } from './flow-definition.ts';
import { FlowsError } from './errors.ts';
import { chatVariable } from './input-variables.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';

type Json = Record<string, unknown>;

/** One message of the conversation passed to llm nodes (earlier chat messages; later also memory). */
export interface ConversationMessage {
  role: 'user' | 'assistant';
  content: string;
}
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A run request body after its shape was checked (the input is checked against the flow separately). */
export interface RunBody {
  input: Json;
  stream: boolean;
  metadata: Json;
}

/** 400 for a value nested deeper than the engine walks (templates and run records recurse). */
function checkDepth(value: unknown, param: 'input' | 'metadata'): void {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH))
    throw new FlowsError('invalid_request', `"${param}" nests deeper than ${MAX_JSON_DEPTH} levels`, 'invalid_request', { param });
}

function checkCommon(body: Json): { stream: boolean; metadata: Json } {
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    throw new FlowsError('invalid_request', '"stream" must be a boolean', 'invalid_request', { param: 'stream' });
  }
  if (body.metadata !== undefined && body.metadata !== null && !isObject(body.metadata)) {
    throw new FlowsError('invalid_request', '"metadata" must be an object', 'invalid_request', { param: 'metadata' });
  }
  checkDepth(body.metadata, 'metadata');
  return { stream: body.stream === true, metadata: (body.metadata as Json | undefined) ?? {} };
}

/** Checks `{"input": {...}, "stream"?, "metadata"?}`: 400 missing_input without an input object. */
export function parseRunBody(body: unknown): RunBody {
  if (!isObject(body) || !isObject(body.input)) {
    throw new FlowsError('invalid_request', 'The request body must be a JSON object with an "input" object', 'missing_input', { param: 'input' });
  }
  checkDepth(body.input, 'input');
  return { input: body.input, ...checkCommon(body) };
}

/** A chat completion request mapped onto a run. */
export interface ChatRunBody extends RunBody {
  conversation: ConversationMessage[];
  callerSystem: string | undefined;
}

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content.filter((p): p is { type: string; text: string } => isObject(p) && p.type === 'text' && typeof p.text === 'string');
    return parts.map((p) => p.text).join('');
  }
  if (content === null) return '';
  return undefined;
}

/**
 * Maps `POST …/chat/completions`: the last user message fills the flow's first
 * required string variable, `input` (extra_body) the others, earlier user and
 * assistant messages become the conversation, system messages extra system text.
 */
export function parseChatBody(body: unknown, variables: InputVariable[]): ChatRunBody {
  if (!isObject(body)) throw new FlowsError('invalid_request', 'The request body must be a JSON object', 'invalid_request');
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new FlowsError('invalid_request', '"messages" must be a non-empty array', 'missing_input', { param: 'messages' });
  }
  const parsed: Array<{ role: string; text: string }> = [];
  messages.forEach((message, index) => {
    const text = isObject(message) ? textOf(message.content) : undefined;
    if (!isObject(message) || typeof message.role !== 'string' || text === undefined) {
      throw new FlowsError('invalid_request', `messages[${index}] must have a "role" and a text "content"`, 'invalid_request', { param: `messages[${index}]` });
    }
    parsed.push({ role: message.role, text });
  });
  const last = parsed.map((m) => m.role).lastIndexOf('user');
  if (last < 0) throw new FlowsError('invalid_request', '"messages" must contain a user message', 'missing_input', { param: 'messages' });
  if (body.input !== undefined && body.input !== null && !isObject(body.input)) {
    throw new FlowsError('invalid_request', '"input" must be an object', 'invalid_request', { param: 'input' });
  }
  checkDepth(body.input, 'input');
  const variable = chatVariable(variables);
  if (!variable)
    throw new FlowsError('invalid_request', 'This flow has no string input variable to receive the user message', 'invalid_request', { param: 'messages' });
  const earlier = parsed.slice(0, last);
  const system = earlier.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => m.text);
  return {
    input: { ...((body.input as Json | undefined) ?? {}), [variable]: parsed[last].text },
    conversation: earlier
      .filter((m): m is ConversationMessage & { text: string } => m.role === 'user' || m.role === 'assistant')
      .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.text })),
    callerSystem: system.length > 0 ? system.join('\n\n') : undefined,
    ...checkCommon(body),
  };
}
