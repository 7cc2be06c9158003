// The builder's one store: the canvas graph (definition ↔ canvas through convert.ts), its undo history,
// the problems found in it and the run's node states. Plain TypeScript, no React: the page subscribes with
// useSyncExternalStore (use-builder.ts) and unit tests drive it directly.
import { canvasToDefinition, definitionToCanvas, type Canvas, type CanvasEdge, type CanvasNode, type Placer } from '../canvas/convert.ts';
import type { Definition, DefinitionMeta, XY } from '../canvas/definition.ts';
import * as edits from '../canvas/graph-edits.ts';
import type { NodeKind } from '../canvas/kinds.ts';
import { keepMeasured, type EdgeChange, type NodeChange } from './flow-changes.ts';
import { NO_PROBLEMS, indexProblems, type ProblemDetail, type ProblemIndex } from './problems.ts';

export { keepMeasured, type EdgeChange, type NodeChange } from './flow-changes.ts';

/** A node's state during a run, shown as `data-status` on the node. */
export type NodeStatus = 'running' | 'finished' | 'skipped' | 'failed';

/** Everything the builder's views read. */
export interface BuilderState extends Canvas {
  /** The flow version the canvas was loaded from or last saved as (the next save's `base_version`). */
  version: number;
  /** Bumped by every change of the definition, positions included. */
  revision: number;
  /** Bumped by every change but moves: what validation depends on. */
  structure: number;
  /** Whether the canvas differs from the version it was loaded from or saved as. */
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  /** The check's problems and the server's (from the last refused save), by node. */
  problems: ProblemIndex;
  /** Node states of the run shown, by node id. */
  status: Readonly<Record<string, NodeStatus>>;
}

const HISTORY_LIMIT = 200;
/** Changes with one key closer together than this are one undo step (typing in a field, arrow-key moves). */
const COALESCE_MS = 1000;

const stableJson = (canvas: Canvas) => JSON.stringify(canvasToDefinition(canvas));
const NO_STATUS: Pick<BuilderState, 'status'> = { status: {} };

/** The store of one open flow. */
export class BuilderStore {
  private state: BuilderState;
  private readonly listeners = new Set<() => void>();
  private past: Canvas[] = [];
  private future: Canvas[] = [];
  private last: { key: string; at: number } | undefined;
  private dragging = false;
  private savedJson: string;
  private savedRevision = 0;
  private clientProblems: ProblemDetail[] = [];
  private serverProblems: ProblemDetail[] = [];
  private checkedDefinition: Pick<Definition, 'nodes'> = { nodes: [] };

  constructor(
    definition: Definition,
    version: number,
    private readonly now: () => number = () => Date.now(),
    place?: Placer,
  ) {
    const canvas = definitionToCanvas(definition, place);
    this.savedJson = stableJson(canvas);
    this.state = { ...canvas, version, revision: 0, structure: 0, dirty: false, canUndo: false, canRedo: false, problems: NO_PROBLEMS, status: {} };
  }

  /** The current state (a new object after every change). */
  readonly getState = (): BuilderState => this.state;

  /** Calls `listener` after every change; answers the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<BuilderState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener();
  }

  private canvas(): Canvas {
    return { meta: this.state.meta, nodes: this.state.nodes, edges: this.state.edges };
  }

  /** The definition on the canvas now. */
  definition(): Definition {
    return canvasToDefinition(this.canvas());
  }

  /**
   * Applies an edit as one undo step (steps with the same `key` less than a
   * second apart merge: typing in one field). `moveOnly` edits leave the
   * structure, and so the problems, as they are.
   */
  private change(next: Canvas, options: { key?: string; moveOnly?: boolean; record?: boolean } = {}): void {
    const s = this.state;
    if (next.meta === s.meta && next.nodes === s.nodes && next.edges === s.edges) return;
    if (options.record !== false) this.record(options.key);
    const structural = !options.moveOnly;
    if (structural) this.serverProblems = [];
    this.set({
      ...next,
      revision: s.revision + 1,
      structure: structural ? s.structure + 1 : s.structure,
      dirty: true,
      canUndo: this.past.length > 0,
      canRedo: this.future.length > 0,
      // The last run's node states describe the flow it ran: an edit of the flow (not a move) clears them.
      ...(structural ? NO_STATUS : {}),
    });
  }

  private record(key?: string): void {
    const at = this.now();
    if (key !== undefined && this.last?.key === key && at - this.last.at < COALESCE_MS) {
      this.last.at = at;
      return;
    }
    this.past.push(this.canvas());
    if (this.past.length > HISTORY_LIMIT) this.past.shift();
    this.future = [];
    this.last = key === undefined ? undefined : { key, at };
  }

  private restore(canvas: Canvas): void {
    this.last = undefined;
    this.serverProblems = [];
    const s = this.state;
    const nodes = keepMeasured(canvas.nodes, s.nodes);
    this.set({
      ...canvas,
      nodes,
      revision: s.revision + 1,
      structure: s.structure + 1,
      dirty: true,
      canUndo: this.past.length > 0,
      canRedo: this.future.length > 0,
      ...NO_STATUS,
    });
    this.refreshDirty();
  }

  /** Undoes the last step. */
  undo(): void {
    const previous = this.past.pop();
    if (!previous) return;
    this.future.push(this.canvas());
    this.restore(previous);
  }

  /** Redoes the last undone step. */
  redo(): void {
    const next = this.future.pop();
    if (!next) return;
    this.past.push(this.canvas());
    this.restore(next);
  }

  /** Compares the canvas with the version it was loaded from or saved as (after edits settle, and after undo). */
  refreshDirty(): void {
    const dirty = this.state.revision !== this.savedRevision && stableJson(this.canvas()) !== this.savedJson;
    if (dirty !== this.state.dirty) this.set({ dirty });
  }

  /** Replaces the whole flow (a reload, another version restored): history starts again. */
  load(definition: Definition, version: number, place?: Placer): void {
    const canvas = definitionToCanvas(definition, place);
    canvas.nodes = keepMeasured(canvas.nodes, this.state.nodes);
    this.past = [];
    this.future = [];
    this.last = undefined;
    this.serverProblems = [];
    this.savedJson = stableJson(canvas);
    const s = this.state;
    this.savedRevision = s.revision + 1;
    this.set({ ...canvas, version, revision: s.revision + 1, structure: s.structure + 1, dirty: false, canUndo: false, canRedo: false, ...NO_STATUS });
  }

  /** The definition of the version the canvas was loaded from or last saved as (what a run runs). */
  savedDefinition(): Definition {
    return JSON.parse(this.savedJson) as Definition;
  }

  /** The canvas at `revision` was saved as `version` (`saved` is what was sent): it is now the base of the next save. */
  markSaved(version: number, saved: Definition, revision = this.state.revision): void {
    this.savedJson = JSON.stringify(saved);
    this.savedRevision = revision;
    this.set({ version });
    this.refreshDirty();
  }

  /** Applies React Flow's node changes: moves (a drag is one undo step), selection and measured sizes. Removal goes through `remove`. */
  applyNodeChanges(changes: readonly NodeChange[]): void {
    const byId = new Map<string, NodeChange[]>();
    let moved = false;
    for (const change of changes) {
      if (change.id === undefined || change.type === 'remove') continue;
      if (change.type === 'position') moved = moved || (change as { position?: XY }).position !== undefined;
      byId.set(change.id, [...(byId.get(change.id) ?? []), change]);
    }
    if (byId.size === 0) return;
    const nodes = this.state.nodes.map((node) => {
      const list = byId.get(node.id);
      if (!list) return node;
      let next: CanvasNode = { ...node };
      for (const change of list) {
        if (change.type === 'position') {
          const c = change as { position?: XY; dragging?: boolean };
          if (c.position) next.position = { x: c.position.x, y: c.position.y };
          if (typeof c.dragging === 'boolean') next.dragging = c.dragging;
        } else if (change.type === 'select') {
          next.selected = (change as { selected: boolean }).selected;
        } else if (change.type === 'dimensions') {
          const c = change as { dimensions?: { width: number; height: number }; resizing?: boolean; setAttributes?: boolean | 'width' | 'height' };
          if (c.dimensions) {
            next.measured = { ...next.measured, width: c.dimensions.width, height: c.dimensions.height };
            if (c.setAttributes === true || c.setAttributes === 'width') next.width = c.dimensions.width;
            if (c.setAttributes === true || c.setAttributes === 'height') next.height = c.dimensions.height;
          }
          if (typeof c.resizing === 'boolean') next.resizing = c.resizing;
        }
      }
      if (
        next.selected === node.selected &&
        next.position === node.position &&
        next.measured === node.measured &&
        next.dragging === node.dragging &&
        next.width === node.width
      )
        next = node;
      return next;
    });
    const canvas = { ...this.canvas(), nodes };
    const dragging = changes.some((c) => c.type === 'position' && (c as { dragging?: boolean }).dragging === true);
    const dragEnded = changes.some((c) => c.type === 'position' && (c as { dragging?: boolean }).dragging === false);
    if (!moved) {
      // Selection and sizes are not edits: no undo step, no revision.
      if (dragEnded) this.dragging = false;
      if (nodes.some((n, i) => n !== this.state.nodes[i])) this.set({ nodes });
      return;
    }
    if (dragging && !this.dragging) {
      this.dragging = true;
      this.change(canvas, { moveOnly: true });
    } else if (this.dragging) {
      this.change(canvas, { moveOnly: true, record: false });
      if (dragEnded) this.dragging = false;
    } else {
      // Arrow keys move selected nodes a step at a time: one undo step per burst.
      this.change(canvas, { moveOnly: true, key: 'move' });
    }
  }

  /** Applies React Flow's edge changes: selection only (removal goes through `remove`). */
  applyEdgeChanges(changes: readonly EdgeChange[]): void {
    const selected = new Map<string, boolean>();
    for (const change of changes) if (change.type === 'select' && change.id !== undefined) selected.set(change.id, (change as { selected: boolean }).selected);
    if (selected.size === 0) return;
    const edges = this.state.edges.map((e) => (selected.has(e.id) && selected.get(e.id) !== Boolean(e.selected) ? { ...e, selected: selected.get(e.id) } : e));
    this.set({ edges });
  }

  /** Selects exactly these nodes (none: clears the selection). */
  select(ids: readonly string[]): void {
    const wanted = new Set(ids);
    const nodes = this.state.nodes.map((n) => (Boolean(n.selected) === wanted.has(n.id) ? n : { ...n, selected: wanted.has(n.id) }));
    const edges = this.state.edges.map((e) => (e.selected ? { ...e, selected: false } : e));
    this.set({ nodes, edges });
  }

  /** Adds a node of `kind` at `position`, selected. Answers its id. */
  addNode(kind: NodeKind, position: XY, data?: Record<string, unknown>): string {
    const { canvas, id } = edits.addNode(this.canvas(), kind, position, data);
    this.change(canvas);
    return id;
  }

  /** Wires two nodes (see graph-edits `connect`). */
  connect(wire: edits.Wire): void {
    this.change(edits.connect(this.canvas(), wire));
  }

  /** Whether a wire may be made. */
  canWire(wire: edits.Wire): boolean {
    return edits.canWire(this.canvas(), wire);
  }

  /** Sets a node's settings; edits of one field (`key`) in quick succession are one undo step. */
  setNodeData(id: string, data: Record<string, unknown>, key?: string): void {
    this.change(edits.setNodeData(this.canvas(), id, data), { key: key === undefined ? undefined : `${id}:${key}` });
  }

  /** Renames a node; answers why it cannot be, or undefined when done. */
  renameNode(oldId: string, newId: string): string | undefined {
    const problem = edits.idProblem(this.canvas(), oldId, newId);
    if (problem) return problem;
    this.change(edits.renameNode(this.canvas(), oldId, newId));
    return undefined;
  }

  /** Sets the flow's name, description or another definition key. */
  setMeta(patch: Partial<DefinitionMeta>, key?: string): void {
    this.change({ ...this.canvas(), meta: { ...this.state.meta, ...patch } }, { key: key === undefined ? undefined : `meta:${key}` });
  }

  /** Removes nodes and edges. */
  remove(nodeIds: Iterable<string>, edgeIds: Iterable<string> = []): void {
    this.change(edits.removeElements(this.canvas(), new Set(nodeIds), new Set(edgeIds)));
  }

  /** Removes the selected nodes and edges. */
  removeSelected(): void {
    this.remove(
      this.state.nodes.filter((n) => n.selected).map((n) => n.id),
      this.state.edges.filter((e) => e.selected).map((e) => e.id),
    );
  }

  /** The selected nodes, to paste later (nothing selected: undefined). */
  copySelected(): edits.Clip | undefined {
    const ids = new Set(this.state.nodes.filter((n) => n.selected).map((n) => n.id));
    return ids.size === 0 ? undefined : edits.copyNodes(this.canvas(), ids);
  }

  /** Pastes copied nodes with new ids, offset from where they were; answers their ids. */
  paste(clip: edits.Clip, offset: XY = { x: 40, y: 40 }): string[] {
    const { canvas, ids } = edits.pasteNodes(this.canvas(), clip, offset);
    this.change(canvas);
    return ids;
  }

  /** Moves nodes to new positions as one undo step (automatic layout). */
  moveNodes(positions: ReadonlyMap<string, XY>): void {
    const nodes = this.state.nodes.map((n) => {
      const p = positions.get(n.id);
      return p && (p.x !== n.position.x || p.y !== n.position.y) ? { ...n, position: p } : n;
    });
    this.change({ ...this.canvas(), nodes }, { moveOnly: true });
  }

  /** Replaces the graph with an imported definition as one undo step (the flow keeps its slug). */
  replaceDefinition(definition: Definition, place?: Placer): void {
    const canvas = definitionToCanvas({ ...definition, slug: this.state.meta.slug }, place);
    if (this.state.meta.slug === undefined) delete canvas.meta.slug;
    canvas.nodes = keepMeasured(canvas.nodes, this.state.nodes);
    this.change(canvas);
  }

  /** The problems the check found in `definition` (what the canvas held when it was checked). */
  setCheckedProblems(details: ProblemDetail[], definition: Pick<Definition, 'nodes'>): void {
    this.clientProblems = details;
    this.checkedDefinition = definition;
    this.publishProblems();
  }

  /** The problems of a save the server refused (422), shown until the next edit. */
  setServerProblems(details: ProblemDetail[], definition: Pick<Definition, 'nodes'>): void {
    this.serverProblems = details;
    this.checkedDefinition = definition;
    this.publishProblems();
  }

  private publishProblems(): void {
    const client = indexProblems(this.clientProblems, this.checkedDefinition);
    const known = new Set(this.clientProblems.map((p) => p.message));
    const server = indexProblems(
      this.serverProblems.filter((p) => !known.has(p.message)),
      this.checkedDefinition,
      true,
    );
    const byNode = { ...client.byNode };
    for (const [id, message] of Object.entries(server.byNode)) byNode[id] = byNode[id] ? `${byNode[id]}\n${message}` : message;
    this.set({ problems: client.list.length + server.list.length === 0 ? NO_PROBLEMS : { list: [...client.list, ...server.list], byNode } });
  }

  /** Sets the run states of nodes (merged into the current ones); `reset` clears them first. */
  setStatus(update: Record<string, NodeStatus>, reset = false): void {
    this.set({ status: reset ? { ...update } : { ...this.state.status, ...update } });
  }

  /** The selected nodes and edges. */
  selection(): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
    return { nodes: this.state.nodes.filter((n) => n.selected), edges: this.state.edges.filter((e) => e.selected) };
  }
}
