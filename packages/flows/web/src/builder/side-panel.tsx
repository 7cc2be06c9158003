// The settings panel: the selected node's settings (one labelled field per data key of its type), or,
// with nothing selected, the flow's own name and description.
import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { Button, TextAreaField, TextField, counted } from '@switchboard/web-kit';
import { ConnectionsField } from './connections-field.tsx';
import { KIND_INFO, kindOf, type NodeKind } from '../canvas/kinds.ts';
import type { CanvasNodeData } from '../canvas/convert.ts';
import { referenceOptions } from './references.ts';
import { useBuilder, useBuilderStore } from './use-builder.ts';
import { InputSettings } from './settings/input-settings.tsx';
import { LlmSettings } from './settings/llm-settings.tsx';
import { AgentSettings, OutputSettings, RetrievalSettings, TemplateSettings } from './settings/misc-settings.tsx';
import { SwitchSettings } from './settings/switch-settings.tsx';
import { HttpToolSettings, McpToolSettings } from './settings/tool-settings.tsx';
import type { SettingsChoices, SettingsProps } from './settings/settings-props.ts';
import type { BuilderState } from './store.ts';

const FORMS: Record<NodeKind, ComponentType<SettingsProps>> = {
  input: InputSettings,
  llm: LlmSettings,
  retrieval: RetrievalSettings,
  switch: SwitchSettings,
  agent: AgentSettings,
  http_tool: HttpToolSettings,
  mcp_tool: McpToolSettings,
  template: TemplateSettings,
  output: OutputSettings,
};

// Selectors answer stored objects, so moving nodes does not re-render the panel.
const selectedData = (s: BuilderState): CanvasNodeData | undefined => {
  let found: CanvasNodeData | undefined;
  for (const node of s.nodes) {
    if (!node.selected) continue;
    if (found) return undefined;
    found = node.data;
  }
  return found;
};

/** Settings of the selected node, or of the flow. */
export function SidePanel({ choices }: { choices: SettingsChoices }) {
  const selected = useBuilder(selectedData);
  return selected ? <NodeSettings data={selected} choices={choices} /> : <FlowSettings />;
}

function NodeSettings({ data, choices }: { data: CanvasNodeData; choices: SettingsChoices }) {
  const store = useBuilderStore();
  const node = data.node;
  const structure = useBuilder((s) => s.structure);
  const problem = useBuilder((s) => s.problems.byNode[node.id]);
  const slug = useBuilder((s) => s.meta.slug);
  // What references, branches and tools depend on changes with the structure, not with moves.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store is mutable; structure is when the nodes and edges read here change.
  const context = useMemo(() => {
    const definition = store.definition();
    const byId = new Map(definition.nodes.map((n) => [n.id, n]));
    return {
      references: referenceOptions(definition.nodes, definition.edges, node.id),
      otherIds: definition.nodes.filter((n) => n.id !== node.id && n.type !== 'input').map((n) => n.id),
      tools: definition.edges.filter((e) => e.to === node.id && ['tool', 'agent'].includes(byId.get(e.from)?.type ?? '')).map((e) => e.from),
    };
  }, [store, structure, node.id]);
  const kind = kindOf(node);
  const Form = FORMS[kind];
  const set = (patch: Record<string, unknown>, key: string) => {
    const next = { ...node.data };
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    store.setNodeData(node.id, next, key);
  };
  return (
    <section className="panel-section" aria-label={`Settings of ${node.id}`}>
      <div className="panel-title">
        <span className={`kind-chip kind-${kind}`}>{KIND_INFO[kind].name}</span>
        <h2 className="truncate">{node.id}</h2>
      </div>
      {problem ? (
        <div className="form-error node-problem" role="status">
          {problem}
        </div>
      ) : null}
      <IdField id={node.id} />
      <Form
        key={node.id}
        node={node}
        set={set}
        references={context.references}
        otherIds={context.otherIds}
        tools={context.tools}
        choices={choices}
        slug={slug}
      />
      <ConnectionsField id={node.id} />
      <div>
        <Button small variant="danger" onClick={() => store.remove([node.id])}>
          Delete node
        </Button>
      </div>
    </section>
  );
}

/** The node's id: applied on Enter or when leaving the field; references to it follow. */
function IdField({ id }: { id: string }) {
  const store = useBuilderStore();
  const [text, setText] = useState(id);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    setText(id);
    setError(undefined);
  }, [id]);
  const apply = () => {
    if (text === id) return;
    const problem = store.renameNode(id, text.trim());
    setError(problem);
  };
  return (
    <TextField
      label="ID"
      className="code"
      value={text}
      error={error}
      hint="References to this node follow a new id"
      onChange={(e) => setText(e.target.value)}
      onBlur={apply}
      onKeyDown={(e) => {
        if (e.key === 'Enter') apply();
        if (e.key === 'Escape') setText(id);
      }}
    />
  );
}

/** The flow's name and description (nothing selected). */
function FlowSettings() {
  const store = useBuilderStore();
  const meta = useBuilder((s) => s.meta);
  const count = useBuilder((s) => s.nodes.length);
  const edges = useBuilder((s) => s.edges.length);
  return (
    <section className="panel-section" aria-label="Flow settings">
      <div className="panel-title">
        <h2>Flow</h2>
        <span className="faint">
          {counted(count, 'node')} · {counted(edges, 'edge')}
        </span>
      </div>
      <TextField label="Name" value={meta.name} maxLength={200} onChange={(e) => store.setMeta({ name: e.target.value }, 'name')} />
      <TextAreaField
        label="Description"
        rows={2}
        value={meta.description ?? ''}
        onChange={(e) => store.setMeta({ description: e.target.value === '' ? undefined : e.target.value }, 'description')}
      />
      <div className="field">
        <span className="field-label">Slug</span>
        <code className="inline-code">{meta.slug ?? 'given on first save'}</code>
      </div>
      <div className="hint">Select a node to edit its settings. Type {'{{'} in a text field for references.</div>
      <Shortcuts />
    </section>
  );
}

function Shortcuts() {
  const mod = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';
  const rows: Array<[string, string]> = [
    [`${mod}+S`, 'Save'],
    [`${mod}+Z`, 'Undo'],
    [`Shift+${mod}+Z`, 'Redo'],
    [`${mod}+C / ${mod}+V`, 'Copy / paste nodes'],
    [`${mod}+A`, 'Select all nodes'],
    ['Delete', 'Delete the selection'],
    ['Tab, Enter', 'Focus and select a node'],
    ['Arrow keys', 'Move the selected nodes'],
  ];
  return (
    <div className="shortcuts">
      <h3>Keyboard</h3>
      <dl>
        {rows.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
