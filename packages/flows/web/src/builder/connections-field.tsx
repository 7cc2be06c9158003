// A node's wiring from the keyboard: what runs before it and after it (or which LLM node it is a tool of),
// each removable, and a select to wire it to another node. The same edits as dragging between handles.
import { Button } from '@switchboard/web-kit';
import { wireAllowed } from '../canvas/graph-edits.ts';
import { useBuilder, useBuilderStore } from './use-builder.ts';

/** The Connections section of node `id`'s settings. */
export function ConnectionsField({ id }: { id: string }) {
  const store = useBuilderStore();
  // Wiring changes with the structure: moving nodes does not re-render this.
  useBuilder((s) => s.structure);
  const edges = useBuilder((s) => s.edges);
  const nodes = store.getState().nodes;
  const self = nodes.find((n) => n.id === id);
  if (!self) return null;
  const type = self.data.node.type;
  const incoming = edges.filter((e) => e.target === id);
  const outgoing = edges.filter((e) => e.source === id);
  // A switch wires its branches through Then and Else; the others may wire to any node that accepts them.
  const wired = new Set(outgoing.map((e) => e.target));
  const candidates = type === 'switch' ? [] : nodes.filter((n) => !wired.has(n.id) && wireAllowed(self.data.node, n.data.node));
  const isTool = type === 'tool';
  return (
    <fieldset className="pairs connections">
      <legend>Connections</legend>
      {type === 'input' || type === 'tool' ? null : (
        <div className="connection-group">
          <span className="field-label">{type === 'llm' ? 'Runs after, or is called as a tool' : 'Runs after'}</span>
          {incoming.length === 0 ? <span className="faint small">Nothing</span> : null}
          <ul className="plain-list connection-list">
            {incoming.map((edge) => (
              <li key={edge.id}>
                <span className="mono">{edge.source}</span>
                {edge.targetHandle === 'tools' ? <span className="badge">tool</span> : null}
                <Button small variant="ghost" aria-label={`Remove connection from ${edge.source}`} onClick={() => store.remove([], [edge.id])}>
                  ✕
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {type === 'output' ? null : (
        <div className="connection-group">
          <span className="field-label">{isTool ? 'Tool of' : 'Leads to'}</span>
          {outgoing.length === 0 ? <span className="faint small">Nothing</span> : null}
          <ul className="plain-list connection-list">
            {outgoing.map((edge) => (
              <li key={edge.id}>
                <span className="mono">{edge.target}</span>
                {edge.sourceHandle?.startsWith('case-') ? (
                  <span className="badge">case {Number(edge.sourceHandle.slice(5)) + 1}</span>
                ) : edge.sourceHandle === 'else' ? (
                  <span className="badge">else</span>
                ) : null}
                <Button small variant="ghost" aria-label={`Remove connection to ${edge.target}`} onClick={() => store.remove([], [edge.id])}>
                  ✕
                </Button>
              </li>
            ))}
          </ul>
          {candidates.length > 0 ? (
            <select
              className="select"
              aria-label={isTool ? 'Make it a tool of' : 'Connect to'}
              value=""
              onChange={(event) =>
                event.target.value && store.connect({ source: id, target: event.target.value, sourceHandle: 'out', targetHandle: isTool ? 'tools' : 'in' })
              }
            >
              <option value="">{isTool ? 'Make it a tool of…' : 'Connect to…'}</option>
              {candidates.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.id}
                </option>
              ))}
            </select>
          ) : null}
        </div>
      )}
    </fieldset>
  );
}
