// The builder's top bar: the flow's name and version, whether it is saved, and its actions.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@switchboard/web-kit';
import { useBuilder, useBuilderStore } from './use-builder.ts';
import type { DraftState } from './draft-autosave.ts';

/** What the last save did. */
export type SaveState = { kind: 'idle' } | { kind: 'busy' } | { kind: 'saved'; version: number } | { kind: 'error'; text: string; revision: number };

const mod = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl+';

/** The toolbar. */
export function Toolbar({
  org,
  note,
  onNote,
  saveState,
  onSave,
  onAutoLayout,
  onExport,
  onImport,
  draftState,
  drawers,
  readOnly = false,
}: {
  org: string;
  note: string;
  onNote: (note: string) => void;
  saveState: SaveState;
  onSave: () => void;
  onAutoLayout: () => void;
  onExport: () => void;
  onImport: () => void;
  /** What the draft autosave last did. */
  draftState: DraftState;
  /** The palette and panel toggles of a narrow window. */
  drawers?: ReactNode;
  /** On a phone the canvas is read: the actions that edit it are left out. */
  readOnly?: boolean;
}) {
  const store = useBuilderStore();
  const name = useBuilder((s) => s.meta.name);
  const slug = useBuilder((s) => s.meta.slug);
  const version = useBuilder((s) => s.version);
  const dirty = useBuilder((s) => s.dirty);
  const canUndo = useBuilder((s) => s.canUndo);
  const canRedo = useBuilder((s) => s.canRedo);
  const revision = useBuilder((s) => s.revision);
  // A refused save is news until the next edit.
  const refused = saveState.kind === 'error' && saveState.revision === revision;
  const status =
    saveState.kind === 'busy'
      ? 'Saving…'
      : refused
        ? saveState.text
        : dirty
          ? 'Unsaved changes'
          : saveState.kind === 'saved'
            ? `Saved version ${saveState.version}`
            : `Version ${version}`;
  return (
    <section className="builder-bar" aria-label="Flow toolbar">
      <nav className="builder-crumbs" aria-label="Breadcrumbs">
        <Link to={`/orgs/${org}/flows`}>Flows</Link>
        <span aria-hidden="true">/</span>
      </nav>
      <h1 className="builder-name truncate" title={name}>
        {name || 'Untitled flow'}
      </h1>
      {slug ? (
        <Link className="builder-slug mono" to={`/orgs/${org}/flows/${encodeURIComponent(slug)}/api`} title="The flow's API: input schema and snippets">
          {slug}
        </Link>
      ) : null}
      <span role="status" className={`save-state ${refused ? 'error' : dirty ? 'dirty' : 'clean'}`} title={dirty ? draftTitle(draftState) : undefined}>
        {status}
      </span>
      {slug ? (
        <Link
          className="btn small ghost"
          to={`/orgs/${org}/flows/${encodeURIComponent(slug)}/api`}
          title="The flow's endpoint, input schema and ready-made snippets"
        >
          API
        </Link>
      ) : null}
      <div className="builder-actions">
        {drawers}
        {readOnly ? null : (
          <>
            <Button small variant="ghost" onClick={() => store.undo()} disabled={!canUndo} title={`Undo (${mod}Z)`}>
              Undo
            </Button>
            <Button small variant="ghost" onClick={() => store.redo()} disabled={!canRedo} title={`Redo (Shift+${mod}Z)`}>
              Redo
            </Button>
            <span className="bar-sep" aria-hidden="true" />
            <Button small variant="ghost" onClick={onAutoLayout} title="Arrange the nodes left to right">
              Auto layout
            </Button>
            <Button small variant="ghost" onClick={onImport}>
              Import JSON
            </Button>
          </>
        )}
        <Button small variant="ghost" onClick={onExport}>
          Export JSON
        </Button>
        {readOnly ? null : (
          <>
            <span className="bar-sep" aria-hidden="true" />
            <input
              className="input note-input"
              aria-label="Version note"
              placeholder="Version note (optional)"
              value={note}
              maxLength={500}
              onChange={(e) => onNote(e.target.value)}
              onKeyDown={(e) => e.key === 'Enter' && onSave()}
            />
            <Button small variant="primary" onClick={onSave} busy={saveState.kind === 'busy'} title={`Save a new version (${mod}S)`}>
              Save
            </Button>
          </>
        )}
      </div>
    </section>
  );
}

/** What the status's tooltip says of the draft while changes are unsaved. */
function draftTitle(state: DraftState): string {
  if (state.kind === 'saved') return `Kept as your draft at ${new Date(state.at).toLocaleTimeString()}: reopening the flow shows it`;
  if (state.kind === 'failed') return `The draft could not be kept (${state.message}); trying again`;
  return 'Kept as your draft within a second or two of each edit';
}
