// What an llm node sends its model besides the conversation: the system text and the prompt, rendered.
import type { LlmNodeData } from '../domain/flow-definition.ts';
import { renderTemplate } from '../domain/references.ts';
import type { NodeContext } from './node-handler.ts';

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
