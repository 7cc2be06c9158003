// The builder of one open flow: toolbar, palette and Problems, the canvas, and the Settings / Run / Versions panel.
import '@xyflow/react/dist/base.css';
import './builder.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { Button, useToast, type ApiError } from '@switchboard/web-kit';
import type { BuilderApi, Draft, SavedFlow } from '../api/builder-api.ts';
import type { Definition } from '../canvas/definition.ts';
import { FlowCanvas } from '../canvas/flow-canvas.tsx';
import { useFitCanvas } from '../canvas/fit.ts';
import type { NodeKind } from '../canvas/kinds.ts';
import { NODE_SIZE, type Placer } from '../canvas/convert.ts';
import { autoLayoutPositions, freeSpot, placerFor } from './placement.ts';
import { EmptyCanvasHint } from './empty-canvas-hint.tsx';
import { savedVariables } from './saved-inputs.ts';
import type { Clip } from '../canvas/graph-edits.ts';
import { checkDefinition, type ProblemDetail } from './problems.ts';
import { BuilderStore } from './store.ts';
import { BuilderContext, useBuilder } from './use-builder.ts';
import { Palette } from './palette.tsx';
import { ProblemsList } from './problems-list.tsx';
import { SidePanel } from './side-panel.tsx';
import { RunPanel } from './run-panel.tsx';
import { VersionsPanel } from './versions-panel.tsx';
import { SchedulesPanel } from '../schedules/schedules-panel.tsx';
import { exampleInput } from '../../../src/domain/input-variables.ts';
import { ImportDialog } from './import-dialog.tsx';
import { ConflictDialog } from './conflict-dialog.tsx';
import { Toolbar, type SaveState } from './toolbar.tsx';
import { DraftBar, type RestoredDraft } from './draft-bar.tsx';
import { useDraftAutosave } from './use-draft-autosave.ts';
import { useOrgChoices } from './use-org-choices.tsx';
import { PanelTabs, useMediaQuery, type Tab } from './panel-tabs.tsx';
import { useShortcuts } from './shortcuts.ts';

/** Navigation entries whose "Created flow" notice was shown. */
const announced = new Set<string>();

/** Copied nodes live here, so they can be pasted into another flow opened in the same tab. */
let clipboard: Clip | undefined;

/** Validation runs this long after the last edit (moves never trigger it). */
const CHECK_DELAY_MS = 200;

/** The builder of `flow`. */
export function Builder({
  flow,
  draft,
  place,
  client,
  org,
}: {
  flow: SavedFlow;
  draft: Draft | null;
  place: Placer | undefined;
  client: BuilderApi;
  org: string;
}) {
  // A draft opens on top of the saved version (Undo goes back to it); a save of it is based on the version it was edited from.
  const [store] = useState(() => {
    const opened = new BuilderStore(flow.definition, draft?.base_version ?? flow.version, undefined, place);
    if (draft) opened.replaceDefinition(draft.definition, place);
    return opened;
  });
  const restored = draft
    ? {
        savedAt: draft.saved_at,
        behind: draft.base_version !== null && draft.base_version < flow.version ? { base: draft.base_version, latest: flow.version } : undefined,
      }
    : undefined;
  return (
    <BuilderContext.Provider value={store}>
      <ReactFlowProvider>
        <BuilderLayout store={store} client={client} org={org} slug={flow.slug} restored={restored} />
      </ReactFlowProvider>
    </BuilderContext.Provider>
  );
}

function BuilderLayout({
  store,
  client,
  org,
  slug,
  restored,
}: {
  store: BuilderStore;
  client: BuilderApi;
  org: string;
  slug: string;
  restored: RestoredDraft | undefined;
}) {
  const flowView = useReactFlow();
  const fit = useFitCanvas();
  const notify = useToast();
  const location = useLocation();
  const navigate = useNavigate();
  // Under 1100 px the palette and the panel are drawers over the canvas; on a phone the canvas is read-only and Run comes first.
  const narrow = useMediaQuery('(max-width: 1099px)');
  const phone = useMediaQuery('(max-width: 599px)');
  const [tab, setTab] = useState<Tab>(phone ? 'run' : 'settings');
  const [drawer, setDrawer] = useState<'palette' | 'panel' | undefined>(undefined);
  const openPanel = useCallback(
    (next: Tab) => {
      setTab(next);
      if (narrow && !phone) setDrawer('panel');
    },
    [narrow, phone],
  );
  const [note, setNote] = useState('');
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'idle' });
  const [conflict, setConflict] = useState<{ latest: number | null; mine: Definition } | undefined>(undefined);
  const [importing, setImporting] = useState(false);
  const [ready, setReady] = useState(false);
  const [draftShown, setDraftShown] = useState(restored);
  const [discarding, setDiscarding] = useState(false);
  const drafts = useDraftAutosave(store, client, slug, restored !== undefined);
  const version = useBuilder((s) => s.version);
  // A save makes the draft a version: the bar goes.
  const openedVersion = useRef(version);
  useEffect(() => {
    if (version !== openedVersion.current) setDraftShown(undefined);
  }, [version]);

  const { choices, providerNames, secretNames, dialog: providerDialog } = useOrgChoices(client, org);

  // The server's validation, run here as the flow changes: after edits settle, never per drag frame.
  useEffect(() => {
    if (!providerNames) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let structure = -1;
    let revision = -1;
    const check = () => {
      const state = store.getState();
      if (state.structure !== structure) {
        structure = state.structure;
        const definition = store.definition();
        store.setCheckedProblems(checkDefinition(definition, providerNames, secretNames), definition);
      }
      revision = state.revision;
      store.refreshDirty();
    };
    const unsubscribe = store.subscribe(() => {
      const state = store.getState();
      if (state.structure === structure && state.revision === revision) return;
      clearTimeout(timer);
      timer = setTimeout(check, CHECK_DELAY_MS);
    });
    check();
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [store, providerNames, secretNames]);

  useEffect(() => {
    const { created, from, ...rest } = (location.state as { created?: string; from?: string } | null) ?? {};
    // Once per visit of the page New flow opened (not again when the builder mounts anew).
    if (!created || announced.has(location.key)) return;
    announced.add(location.key);
    notify(from ? `Created flow "${created}" from ${from}.` : `Created flow "${created}": its canvas starts with an Input and an Output node.`);
    // The browser keeps a history entry's state across a reload (and back and forward): said once, it goes.
    // void: under BrowserRouter navigate() returns nothing; the promise its type allows is a data router's.
    void navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { replace: true, state: Object.keys(rest).length > 0 ? rest : null },
    );
  }, [location, notify, navigate]);

  const showNode = useCallback(
    (id: string) => {
      store.select([id]);
      setTab('settings');
      fit({ nodes: [id], duration: 250, maxZoom: 1, minZoom: 0.5 });
    },
    [store, fit],
  );

  const saving = useRef(false);
  const save = useCallback(
    /** `base`: the version this save is based on (default: the one loaded); 'none' saves unconditionally. */
    async (base?: number | 'none'): Promise<boolean> => {
      if (saving.current) return false;
      saving.current = true;
      const definition = store.definition();
      const revision = store.getState().revision;
      setSaveState({ kind: 'busy' });
      try {
        const baseVersion = base === 'none' ? undefined : (base ?? store.getState().version);
        const saved = await client.save(definition, { baseVersion, note: note.trim() || undefined });
        store.markSaved(saved.version, definition, revision);
        setNote('');
        setConflict(undefined);
        setSaveState({ kind: 'saved', version: saved.version });
        return true;
      } catch (reason) {
        const error = reason as ApiError;
        const body = (error.body as { error?: { details?: ProblemDetail[]; latest_version?: number | null } } | null)?.error;
        if (error.status === 409 && error.code === 'version_conflict') {
          setConflict({ latest: body?.latest_version ?? null, mine: definition });
          setSaveState({ kind: 'error', text: 'Not saved: someone saved a newer version', revision });
        } else if (error.status === 422 && Array.isArray(body?.details)) {
          store.setServerProblems(body.details, definition);
          setSaveState({ kind: 'error', text: `Not saved: ${body.details.length} problem${body.details.length === 1 ? '' : 's'} (see Problems)`, revision });
        } else {
          setSaveState({ kind: 'error', text: `Not saved: ${error.message}`, revision });
        }
        return false;
      } finally {
        saving.current = false;
      }
    },
    [client, store, note],
  );

  const reloadLatest = useCallback(async () => {
    try {
      const latest = await client.flow(slug);
      store.load(latest.definition, latest.version, await placerFor(latest.definition));
      setConflict(undefined);
      setSaveState({ kind: 'idle' });
      notify(`Loaded version ${latest.version}`);
    } catch (reason) {
      notify((reason as Error).message, 'error');
    }
  }, [client, slug, store, notify]);

  const discardDraft = useCallback(async () => {
    setDiscarding(true);
    try {
      await client.deleteDraft(slug);
      const latest = await client.flow(slug);
      store.load(latest.definition, latest.version, await placerFor(latest.definition));
      drafts.autosave.discarded();
      setDraftShown(undefined);
      setSaveState({ kind: 'idle' });
      notify('Draft discarded: the canvas shows the latest saved version.');
    } catch (reason) {
      notify((reason as Error).message, 'error');
    } finally {
      setDiscarding(false);
    }
  }, [client, slug, store, drafts.autosave, notify]);

  const addNode = useCallback(
    (kind: NodeKind) => {
      const pane = document.querySelector('.builder-canvas')?.getBoundingClientRect();
      const center = pane ? flowView.screenToFlowPosition({ x: pane.left + pane.width / 2, y: pane.top + pane.height / 2 }) : { x: 0, y: 0 };
      const id = store.addNode(
        kind,
        freeSpot(store.getState().nodes, { x: Math.round(center.x - NODE_SIZE.width / 2), y: Math.round(center.y - NODE_SIZE.height / 2) }),
      );
      setTab('settings');
      return id;
    },
    [flowView, store],
  );

  const autoLayout = useCallback(async () => {
    const { nodes, edges } = store.getState();
    const types = new Map(nodes.map((n) => [n.id, n.data.node.type]));
    const positions = await autoLayoutPositions(
      nodes.map((n) => ({ id: n.id, width: n.measured?.width ?? NODE_SIZE.width, height: n.measured?.height ?? NODE_SIZE.height })),
      edges.map((e) => ({ source: e.source, target: e.target, tool: types.get(e.target) === 'llm' && ['tool', 'agent'].includes(types.get(e.source) ?? '') })),
    );
    store.moveNodes(positions);
    fit({ duration: 250 });
  }, [store, fit]);

  const exportJson = useCallback(() => {
    const definition = store.definition();
    const url = URL.createObjectURL(new Blob([`${JSON.stringify(definition, null, 2)}\n`], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${definition.slug ?? 'flow'}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }, [store]);

  useShortcuts({
    save: () => void save(),
    undo: () => store.undo(),
    redo: () => store.redo(),
    remove: () => store.removeSelected(),
    copy: () => {
      const clip = store.copySelected();
      if (!clip) return;
      clipboard = clip;
      notify(`Copied ${clip.nodes.length} node${clip.nodes.length === 1 ? '' : 's'}`);
    },
    paste: () => {
      if (clipboard) store.paste(clipboard);
    },
    selectAll: () => store.select(store.getState().nodes.map((n) => n.id)),
  });

  return (
    <div className="builder">
      <Toolbar
        org={org}
        note={note}
        onNote={setNote}
        saveState={saveState}
        onSave={() => void save()}
        onAutoLayout={() => void autoLayout()}
        onExport={exportJson}
        onImport={() => setImporting(true)}
        draftState={drafts.state}
        readOnly={phone}
        drawers={
          narrow && !phone ? (
            <>
              {/* The two drawers' toggles: alike but for the drawer each opens. */}
              <Button
                small
                variant="ghost"
                aria-expanded={drawer === 'palette'}
                aria-controls="builder-palette"
                onClick={() => setDrawer(drawer === 'palette' ? undefined : 'palette')}
              >
                Palette
              </Button>
              <Button
                small
                variant="ghost"
                aria-expanded={drawer === 'panel'}
                aria-controls="builder-panel"
                onClick={() => setDrawer(drawer === 'panel' ? undefined : 'panel')}
              >
                Panel
              </Button>
            </>
          ) : null
        }
      />
      {providerDialog}
      {draftShown ? <DraftBar draft={draftShown} busy={discarding} onDiscard={() => void discardDraft()} /> : null}
      <div className={`builder-body${drawer ? ` drawer-${drawer}` : ''}`}>
        <aside className="builder-left" id="builder-palette" aria-label="Palette and problems">
          <Palette
            onAdd={(kind) => {
              addNode(kind);
              if (narrow && !phone) setDrawer('panel');
            }}
          />
          <ProblemsList onShow={showNode} />
        </aside>
        <section className="builder-canvas" aria-label="Canvas" aria-busy={!ready}>
          <FlowCanvas onNodeOpen={() => openPanel('settings')} onReady={() => setReady(true)} readOnly={phone} />
          <EmptyCanvasHint />
        </section>
        <aside className="builder-right" id="builder-panel" aria-label="Settings, run, versions and schedules">
          <PanelTabs tab={tab} onTab={setTab} />
          <div role="tabpanel" id="panel-settings" aria-labelledby="tab-settings" hidden={tab !== 'settings'} className="tab-panel">
            <SidePanel choices={choices} />
          </div>
          <div role="tabpanel" id="panel-run" aria-labelledby="tab-run" hidden={tab !== 'run'} className="tab-panel">
            <RunPanel client={client} org={org} slug={slug} onSave={() => save()} />
          </div>
          <div role="tabpanel" id="panel-versions" aria-labelledby="tab-versions" hidden={tab !== 'versions'} className="tab-panel">
            {tab === 'versions' ? <VersionsPanel client={client} slug={slug} onRestored={(version) => setSaveState({ kind: 'saved', version })} /> : null}
          </div>
          <div role="tabpanel" id="panel-schedules" aria-labelledby="tab-schedules" hidden={tab !== 'schedules'} className="tab-panel">
            {tab === 'schedules' ? (
              <SchedulesPanel base={`/api/llm/${encodeURIComponent(org)}`} org={org} slug={slug} exampleInput={exampleInput(savedVariables(store))} />
            ) : null}
          </div>
        </aside>
      </div>
      {importing ? (
        <ImportDialog
          onClose={() => setImporting(false)}
          onImport={async (definition) => {
            store.replaceDefinition(definition, await placerFor(definition));
            setImporting(false);
            setTab('settings');
            fit();
          }}
        />
      ) : null}
      {conflict ? (
        <ConflictDialog
          client={client}
          slug={slug}
          latest={conflict.latest}
          mine={conflict.mine}
          busy={saveState.kind === 'busy'}
          onClose={() => setConflict(undefined)}
          onReload={() => void reloadLatest()}
          onSaveAnyway={() => void save(conflict.latest ?? 'none')}
        />
      ) : null}
    </div>
  );
}
