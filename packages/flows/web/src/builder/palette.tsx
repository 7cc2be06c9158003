// The palette: one entry per node type, added by clicking (or Enter) or by dragging onto the canvas; a search box filters it.
import { useState } from 'react';
import { filterKinds, type NodeKind } from '../canvas/kinds.ts';
import { PALETTE_DRAG_TYPE } from '../canvas/flow-canvas.tsx';

/** The node palette; `onAdd` adds a node of a kind where the canvas is looking. */
export function Palette({ onAdd }: { onAdd: (kind: NodeKind) => void }) {
  const [query, setQuery] = useState('');
  const kinds = filterKinds(query);
  return (
    <section className="palette" aria-label="Palette">
      <h2 className="panel-heading">Nodes</h2>
      {/* A search box: its attributes are alike other search boxes', with its own label and state. */}
      <input
        className="input"
        type="search"
        aria-label="Search nodes"
        placeholder="Search nodes"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <ul className="plain-list palette-list">
        {kinds.map((info) => (
          <li key={info.kind}>
            <button
              type="button"
              className="palette-entry"
              draggable
              aria-label={info.name}
              title={`${info.blurb}. Click to add, or drag onto the canvas.`}
              onDragStart={(event) => {
                event.dataTransfer.setData(PALETTE_DRAG_TYPE, info.kind);
                event.dataTransfer.effectAllowed = 'copy';
              }}
              onClick={() => onAdd(info.kind)}
            >
              <span className={`kind-dot kind-${info.kind}`} aria-hidden="true" />
              <span className="palette-text">
                <span className="palette-name">{info.name}</span>
                <span className="palette-blurb">{info.blurb}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {kinds.length === 0 ? <p className="faint small">No node type matches “{query}”.</p> : null}
    </section>
  );
}
