import type { InputVariable } from '../../../src/domain/flow-definition.ts';
import type { BuilderStore } from './store.ts';

/** The Input node's variables of the saved version: what a schedule's input is checked against. */
export function savedVariables(store: BuilderStore): InputVariable[] {
  const input = store.savedDefinition().nodes.find((node) => node.type === 'input');
  return (Array.isArray(input?.data.variables) ? input.data.variables : []) as InputVariable[];
}
