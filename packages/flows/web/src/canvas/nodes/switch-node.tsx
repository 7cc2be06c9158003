import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { CanvasNode } from '../convert.ts';
import { NodeFrame } from './node-frame.tsx';

interface Case {
  if?: { left?: unknown; op?: unknown; right?: unknown };
  then?: unknown;
}

const side = (value: unknown) => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));

/** The Switch node: one output per case, in order, plus **else**; wiring one sets that branch. */
function SwitchNode({ data }: NodeProps<CanvasNode>) {
  const id = data.node.id;
  const cases = Array.isArray(data.node.data.cases) ? (data.node.data.cases as Array<Case | null>) : [];
  const rows = (
    <div className="fnode-branches">
      {cases.map((c, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a case is its place: its handle is case-INDEX, as the definition numbers them.
        <div className="fnode-branch" key={index}>
          <span className="fnode-branch-name">case {index + 1}</span>
          <span className="fnode-branch-cond">
            {side(c?.if?.left)} {side(c?.if?.op)} {c?.if?.op === 'exists' ? '' : side(c?.if?.right)}
          </span>
          <Handle type="source" position={Position.Right} id={`case-${index}`} title={`Case ${index + 1} of ${id}: drag to the node it leads to`} />
        </div>
      ))}
      <div className="fnode-branch">
        <span className="fnode-branch-name">else</span>
        <Handle type="source" position={Position.Right} id="else" title={`Else of ${id}: drag to the node it leads to`} />
      </div>
    </div>
  );
  return (
    <NodeFrame kind="switch" node={data.node} rows={rows}>
      <Handle type="target" position={Position.Left} id="in" title={`Input of ${id}`} />
    </NodeFrame>
  );
}

export default memo(SwitchNode);
