// **Import JSON**: a definition pasted into **Definition JSON** or read from a file, checked for its shape, replacing the canvas (undoable).
import { useState, type ChangeEvent } from 'react';
import { Button, Dialog, FormError, TextAreaField } from '@switchboard/web-kit';
import type { Definition } from '../canvas/definition.ts';

/** What is wrong with a parsed import, if anything (the rest is the validation's, shown as problems). */
function shapeProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'A definition is a JSON object with "name", "nodes" and "edges".';
  const candidate = value as Record<string, unknown>;
  if (!Array.isArray(candidate.nodes)) return 'The definition has no "nodes" array.';
  if (candidate.edges !== undefined && !Array.isArray(candidate.edges)) return '"edges" must be an array.';
  const bad = candidate.nodes.findIndex(
    (n) => n === null || typeof n !== 'object' || typeof (n as { id?: unknown }).id !== 'string' || typeof (n as { type?: unknown }).type !== 'string',
  );
  if (bad >= 0) return `Node ${bad} needs a string "id" and "type".`;
  const ids = (candidate.nodes as Array<{ id: string }>).map((n) => n.id);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) return `Two nodes are called "${duplicate}".`;
  return undefined;
}

/** The canvas's words; the Flows page's **Import flow** says its own. */
const ON_CANVAS = {
  title: 'Import JSON',
  intro: 'The definition replaces what is on the canvas (Undo brings it back). The flow keeps its slug; saving makes a new version.',
};

/** The import dialog; `onImport` gets the parsed definition (a rejection's message is shown in the dialog). */
export function ImportDialog({
  onImport,
  onClose,
  words = ON_CANVAS,
}: {
  onImport: (definition: Definition) => void | Promise<void>;
  onClose: () => void;
  words?: { title: string; intro: string };
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setText(await file.text());
    setError('');
  };
  const submit = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (reason) {
      setError(`Not valid JSON: ${(reason as Error).message}`);
      return;
    }
    const problem = shapeProblem(parsed);
    if (problem) {
      setError(problem);
      return;
    }
    const definition = parsed as Definition;
    const done = onImport({ ...definition, name: typeof definition.name === 'string' ? definition.name : 'Imported flow', edges: definition.edges ?? [] });
    if (!done) return;
    setBusy(true);
    done.catch((reason: Error) => {
      setError(reason.message);
      setBusy(false);
    });
  };
  return (
    <Dialog
      title={words.title}
      onClose={onClose}
      wide
      actions={
        <Button variant="primary" onClick={submit} disabled={text.trim() === ''} busy={busy}>
          Import
        </Button>
      }
    >
      <p className="muted">{words.intro}</p>
      <FormError>{error}</FormError>
      <TextAreaField
        label="Definition JSON"
        className="code"
        rows={14}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder='{"name": "…", "nodes": [...], "edges": [...]}'
      />
      <label className="field">
        <span className="field-label">Or read a file</span>
        <input type="file" accept="application/json,.json" aria-label="JSON file" onChange={(e) => void readFile(e)} />
      </label>
    </Dialog>
  );
}
