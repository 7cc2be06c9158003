// Where a node's handles are before the canvas has drawn it. React Flow draws every node it has not
// measured once, whether in view or not, to find its handles; given them up front it draws only the
// nodes in view, and measures each exactly when it first comes into view. The figures follow the node
// styles in builder.css (220 px wide; head and summary 51 px; a switch adds a row per case and else).
import { Position, type NodeHandle } from '@xyflow/react';
import { HANDLE, NODE_SIZE, type CanvasNode } from './convert.ts';

const WIDTH = NODE_SIZE.width;
/** A node's head and summary line. */
const BODY = 51;
/** A switch's branch rows: the first's handle top, and the distance between rows. */
const FIRST_BRANCH = 57.5;
const BRANCH_ROW = 23.6;
const SIZE = 10;

const handle = (id: string, type: 'source' | 'target', position: Position, x: number, y: number): NodeHandle => ({
  id,
  type,
  position,
  x,
  y,
  width: SIZE,
  height: SIZE,
});

/** The handles a node of this kind and data draws, in node coordinates (as React Flow measures them). */
export function approximateHandles(node: CanvasNode): NodeHandle[] {
  const middle = (height: number) => height / 2 - SIZE / 2;
  const input = (height: number) => handle(HANDLE.in, 'target', Position.Left, -1, middle(height));
  const output = (height: number) => handle(HANDLE.out, 'source', Position.Right, WIDTH - 6, middle(height));
  switch (node.type) {
    case 'input':
      return [output(BODY)];
    case 'output':
      return [input(BODY)];
    case 'http_tool':
    case 'mcp_tool':
      return [handle(HANDLE.out, 'source', Position.Top, WIDTH / 2 - 3.5, -4)];
    case 'llm':
      return [input(BODY), handle(HANDLE.tools, 'target', Position.Bottom, WIDTH / 2 - 3.5, BODY - 6), output(BODY)];
    case 'switch': {
      const cases = Array.isArray(node.data.node.data.cases) ? node.data.node.data.cases.length : 0;
      const branch = (row: number) => FIRST_BRANCH + row * BRANCH_ROW;
      const height = BODY + 1 + (cases + 1) * BRANCH_ROW;
      return [
        input(height),
        ...Array.from({ length: cases }, (_, row) => handle(HANDLE.case(row), 'source', Position.Right, WIDTH - 6, branch(row))),
        handle(HANDLE.else, 'source', Position.Right, WIDTH - 6, branch(cases)),
      ];
    }
    default:
      return [input(BODY), output(BODY)];
  }
}
