// What every node's settings form gets.
import type { DefNode } from '../../canvas/definition.ts';
import type { ReferenceOption } from '../references.ts';

/** Lists from the organization that settings offer as choices. */
export interface SettingsChoices {
  /** Provider connection names. */
  providers: readonly string[];
  /** The organization's flows (for an Agent node). */
  flows: ReadonlyArray<{ slug: string; name: string }>;
  /** Knowledge base names. */
  knowledgeBases: readonly string[];
  /** Secret names, offered as `{{secrets.NAME}}` where a tool's request may use them. */
  secrets?: readonly string[];
  /** Opens the providers dialog in place; resolves with the new connection's name (undefined: cancelled). */
  addProvider?: () => Promise<string | undefined>;
  /** The model ids of a connection (the Model field's suggestions); rejects with the provider's error. */
  models?: (provider: string) => Promise<string[]>;
}

/** Props of a node's settings form. */
export interface SettingsProps {
  node: DefNode;
  /**
   * Sets keys of the node's data (undefined removes a key); `key` names the
   * field, so typing in it makes one undo step.
   */
  set: (patch: Record<string, unknown>, key: string) => void;
  /** The references this node may use after `{{`. */
  references: readonly ReferenceOption[];
  /** Ids of the other nodes (switch branches). */
  otherIds: readonly string[];
  /** Ids of the tool and agent nodes wired into this node (an LLM node's tools). */
  tools: readonly string[];
  choices: SettingsChoices;
  /** The open flow's slug. */
  slug: string | undefined;
}

/** A string setting as text ('' when absent). */
export const str = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));

/** Options of a select of names, with the current value kept even when it is not (or no longer) one of them. */
export function withCurrent(names: readonly string[], current: unknown): Array<{ value: string; label: string }> {
  const options = names.map((name) => ({ value: name, label: name }));
  if (typeof current === 'string' && current !== '' && !names.includes(current)) options.unshift({ value: current, label: `${current} (not found)` });
  return options;
}
