import type { SwitchNodeData } from '../domain/flow-definition.ts';
import { renderJsonTemplate, renderTemplate } from '../domain/references.ts';
import { chooseBranch } from '../domain/switch-evaluation.ts';
import type { NodeContext, NodeResult } from './node-handler.ts';

/** `input`: its output is the validated variables. */
export async function runInputNode(context: NodeContext): Promise<NodeResult> {
  return { output: context.scope.input };
}

/** `template`: renders `data.template`. */
export async function runTemplateNode(context: NodeContext): Promise<NodeResult> {
  const text = renderTemplate(String(context.node.data.template ?? ''), context.scope);
  return { output: { text }, text };
}

/** `switch`: picks the branch; the runner skips the others. */
export async function runSwitchNode(context: NodeContext): Promise<NodeResult> {
  const branch = chooseBranch(context.node.data as unknown as SwitchNodeData, context.scope);
  return { output: { branch }, branch };
}

/** `output`: a json_template renders here; raw and chat_completion replies are assembled by the runner. */
export async function runOutputNode(context: NodeContext): Promise<NodeResult> {
  if (context.flow.output.format === 'json_template') return { output: renderJsonTemplate(context.flow.output.template, context.scope) };
  return { output: null };
}
