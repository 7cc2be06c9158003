// Run as a chat (web.md, "The first hour"): which flows get it, and the conversation it keeps on screen. Pure.
import type { InputVariable } from '../../../src/domain/flow-definition.ts';

/** One message of the conversation on screen. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  text: string;
  /** The run that answered (assistant turns). */
  runId?: string;
  /** True when the run failed: `text` says why. */
  failed?: boolean;
}

/**
 * The variable a chat message goes into: the Input node's one variable, a
 * required string named `message` (the starter's and every template's).
 * Undefined: the flow takes more than a message and is run from its form.
 */
export function chatVariable(variables: readonly InputVariable[]): string | undefined {
  const [only] = variables;
  return variables.length === 1 && only.name === 'message' && only.type === 'string' && only.required === true ? only.name : undefined;
}

/** A new session id: the flow's memory keeps the conversation under it until **New chat**. */
export function newSessionId(random: () => number = Math.random): string {
  return `chat-${Math.floor(random() * 36 ** 8)
    .toString(36)
    .padStart(8, '0')}`;
}

/** The conversation after a run ended: its answer (or why it failed) after the user's message. */
export function answered(turns: readonly ChatTurn[], run: { answer: string; runId?: string; error?: string }): ChatTurn[] {
  const turn: ChatTurn = run.error !== undefined ? { role: 'assistant', text: run.error, failed: true } : { role: 'assistant', text: run.answer };
  if (run.runId) turn.runId = run.runId;
  return [...turns, turn];
}
