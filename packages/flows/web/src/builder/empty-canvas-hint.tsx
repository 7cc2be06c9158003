import { useBuilder } from './use-builder.ts';

/** Shown over an empty canvas: how to start. */
export function EmptyCanvasHint() {
  const empty = useBuilder((s) => s.nodes.length === 0);
  if (!empty) return null;
  return (
    <div className="canvas-empty" role="note">
      <strong>The canvas is empty.</strong> Add nodes from the palette (click or drag), or import a definition with <em>Import JSON</em>.
    </div>
  );
}
