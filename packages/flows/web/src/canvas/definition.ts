// The flow definition as the builder reads and writes it (design/flows.md, "The flow definition"): the
// format's keys plus whatever else a node, edge or definition carries, which the server keeps as saved.
import type { NodeType } from '../../../src/domain/flow-definition.ts';

export type { NodeType };

/** A point on the canvas. */
export interface XY {
  x: number;
  y: number;
}

/** One node of a definition; keys beyond the format's are kept as they are. */
export interface DefNode {
  id: string;
  type: NodeType;
  data: Record<string, unknown>;
  position?: XY;
  [key: string]: unknown;
}

/** One edge of a definition: `to` runs after `from` (or, from a tool or agent into an llm node, is its tool). */
export interface DefEdge {
  from: string;
  to: string;
  [key: string]: unknown;
}

/** Everything of a definition but its nodes and edges (name, slug, description, a client's own keys). */
export interface DefinitionMeta {
  name: string;
  slug?: string;
  description?: string;
  [key: string]: unknown;
}

/** A whole definition. */
export interface Definition extends DefinitionMeta {
  nodes: DefNode[];
  edges: DefEdge[];
}
