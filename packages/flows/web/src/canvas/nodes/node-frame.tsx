// The frame every node draws: its palette name, its id and the one-line summary of its settings.
import type { ReactNode } from 'react';
import { KIND_INFO, summaryOf, type NodeKind } from '../kinds.ts';
import type { DefNode } from '../definition.ts';

/** The short mark in each node's chip (no icon font: every asset is served by the service). */
const MARKS: Record<NodeKind, string> = {
  input: 'IN',
  llm: 'AI',
  retrieval: 'KB',
  switch: 'IF',
  agent: 'AG',
  http_tool: 'HT',
  mcp_tool: 'MC',
  template: 'TX',
  output: 'OUT',
};

/** A node's body; its handles and any extra rows go in `children`. */
export function NodeFrame({ kind, node, children, rows }: { kind: NodeKind; node: DefNode; children?: ReactNode; rows?: ReactNode }) {
  const summary = summaryOf(node);
  return (
    <div className={`fnode fnode-${kind}`}>
      <div className="fnode-head">
        <span className="fnode-mark" aria-hidden="true">
          {MARKS[kind]}
        </span>
        <span className="fnode-type">{KIND_INFO[kind].name}</span>
        <span className="fnode-id">{node.id}</span>
      </div>
      <div className="fnode-summary">{summary}</div>
      {rows}
      {children}
    </div>
  );
}
