// **Run**: a form generated from the saved version's Input node, a session id, and the run streamed live:
// the answer as it arrives, node states on the canvas, tool calls, then output, usage, latency and a link.
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button, Field, FormError, TextField } from '@switchboard/web-kit';
import type { InputVariable } from '../../../src/domain/flow-definition.ts';
import { validateInput } from '../../../src/domain/input-variables.ts';
import type { BuilderApi } from '../api/builder-api.ts';
import type { Definition } from '../canvas/definition.ts';
import { STARTED, finalStatuses, foldRunEvent, readJsonLines, toolStatuses, type RunView } from './run-stream.ts';
import { useBuilder, useBuilderStore } from './use-builder.ts';

type Values = Record<string, string | boolean>;

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** What a form field holds at first: the default, as the field shows it. */
function initialValue(variable: InputVariable): string | boolean {
  if (variable.type === 'boolean') return variable.default === true;
  if (variable.default === undefined) return '';
  if (variable.type === 'object' || variable.type === 'array') return JSON.stringify(variable.default, null, 2);
  if (variable.type === 'enum') return JSON.stringify(variable.default);
  return String(variable.default);
}

/** The run's input from the form; a field that is not valid JSON is a problem here (the rest is the server's check). */
function inputOf(variables: InputVariable[], values: Values): { input: Record<string, unknown>; problems: Record<string, string> } {
  const input: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const variable of variables) {
    const value = values[variable.name];
    if (variable.type === 'boolean') {
      input[variable.name] = value === true;
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') continue;
    if (variable.type === 'number' || variable.type === 'integer') input[variable.name] = Number(value);
    else if (variable.type === 'enum') input[variable.name] = JSON.parse(value);
    else if (variable.type === 'object' || variable.type === 'array') {
      try {
        input[variable.name] = JSON.parse(value);
      } catch {
        problems[variable.name] = 'Not valid JSON';
      }
    } else input[variable.name] = value;
  }
  return { input, problems };
}

/** The Run panel of flow `slug`, running its saved version. */
export function RunPanel({ client, org, slug, onSave }: { client: BuilderApi; org: string; slug: string; onSave: () => Promise<boolean> }) {
  const store = useBuilderStore();
  const version = useBuilder((s) => s.version);
  const dirty = useBuilder((s) => s.dirty);
  // The form follows the version that runs: the saved one.
  const saved = useMemo<Definition>(() => store.savedDefinition(), [store, version]);
  const variables = useMemo(() => {
    const input = saved.nodes.find((n) => n.type === 'input');
    return (Array.isArray(input?.data.variables) ? input!.data.variables : []) as InputVariable[];
  }, [saved]);
  const [values, setValues] = useState<Values>({});
  const [session, setSession] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [view, setView] = useState<RunView | undefined>(undefined);
  const [latency, setLatency] = useState<number | undefined>(undefined);
  const abort = useRef<AbortController | undefined>(undefined);

  useEffect(() => {
    setValues(Object.fromEntries(variables.map((v) => [v.name, initialValue(v)])));
    setProblems({});
  }, [variables]);
  useEffect(() => () => abort.current?.abort(), []);

  const run = async () => {
    setFormError('');
    const { input, problems: local } = inputOf(variables, values);
    const checked = validateInput(variables, input);
    const found: Record<string, string> = { ...local };
    if (!checked.ok) for (const p of checked.problems) found[p.param.replace(/^input\./, '')] ??= p.message;
    setProblems(found);
    if (Object.keys(found).length > 0) return;

    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    const began = performance.now();
    let current: RunView = STARTED;
    setView(current);
    setLatency(undefined);
    store.setStatus({}, true);
    const apply = (next: RunView) => {
      current = next;
      setView(next);
      store.setStatus(next.tools.length > 0 ? { ...next.nodes, ...toolStatuses(saved, next.tools) } : next.nodes, true);
    };
    try {
      const response = await client.startRun(slug, { input, metadata: session.trim() ? { session_id: session.trim() } : undefined }, controller.signal);
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string; details?: Array<{ param: string; message: string }> } } | null;
        const details = body?.error?.details ?? [];
        setProblems(Object.fromEntries(details.filter((d) => d.param.startsWith('input.')).map((d) => [d.param.slice('input.'.length), d.message])));
        setFormError(body?.error?.message ?? `The run was refused (${response.status})`);
        setView(undefined);
        return;
      }
      await readJsonLines(response.body, (event) => apply(foldRunEvent(current, event)));
    } catch (reason) {
      if ((reason as Error).name === 'AbortError') {
        apply({ ...current, phase: 'failed', error: 'Stopped' });
        return;
      }
      apply({ ...current, phase: 'failed', error: (reason as Error).message });
    } finally {
      if (abort.current === controller) abort.current = undefined;
    }
    setLatency(Math.round(performance.now() - began));
    store.setStatus(finalStatuses(current, saved), true);
    if (current.runId) {
      // The run record has the exact states (skipped branches, the failed node) and the server's latency.
      const record = await client.run(current.runId).catch(() => undefined);
      if (record && abort.current === undefined) {
        store.setStatus(finalStatuses(current, saved, record.trace), true);
        if (typeof record.latency_ms === 'number') setLatency(Math.round(record.latency_ms));
      }
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  const running = view?.phase === 'running';

  return (
    <section className="panel-section run-panel" aria-label="Run the flow">
      <h2 className="panel-heading">Run version {version}</h2>
      {dirty ? (
        <div className="notice" role="status">
          The canvas has unsaved changes; a run uses the saved version {version}.
          <Button small variant="primary" onClick={() => void onSave().then((ok) => (ok ? run() : undefined))}>
            Save and run
          </Button>
        </div>
      ) : null}
      <form className="stack" onSubmit={submit} aria-label="Run input" noValidate>
        <FormError>{formError}</FormError>
        {variables.length === 0 ? <p className="faint small">The Input node declares no variables.</p> : null}
        {variables.map((variable) => (
          <VariableInput key={variable.name} variable={variable} value={values[variable.name] ?? ''} error={problems[variable.name]} onChange={(value) => setValues((all) => ({ ...all, [variable.name]: value }))} />
        ))}
        <TextField label="Session ID" value={session} onChange={(e) => setSession(e.target.value)} hint="metadata.session_id: runs with the same id share memory" className="code" />
        <div className="row">
          <Button type="submit" variant="primary" busy={running}>
            Run
          </Button>
          {running ? (
            <Button onClick={() => abort.current?.abort()} variant="ghost">
              Stop
            </Button>
          ) : null}
        </div>
      </form>
      {view ? <RunResult view={view} latency={latency} org={org} /> : null}
    </section>
  );
}

/** One input field of the form, by the variable's type. */
function VariableInput({ variable, value, error, onChange }: { variable: InputVariable; value: string | boolean; error?: string; onChange: (value: string | boolean) => void }) {
  const label = variable.name;
  const hint = [variable.description, variable.type === 'integer' || variable.type === 'number' ? variable.type : undefined].filter(Boolean).join(' · ') || undefined;
  switch (variable.type) {
    case 'boolean':
      return (
        <label className="checkbox">
          <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          {label}
          {variable.description ? <span className="faint"> · {variable.description}</span> : null}
        </label>
      );
    case 'enum':
      return (
        <Field label={label} required={variable.required} hint={hint} error={error}>
          {({ id, describedBy, invalid }) => (
            <select id={id} className="select" value={String(value)} required={variable.required} aria-describedby={describedBy} aria-invalid={invalid || undefined} onChange={(e) => onChange(e.target.value)}>
              {variable.required ? null : <option value="">(not set)</option>}
              {(variable.values ?? []).map((v) => (
                <option key={JSON.stringify(v)} value={JSON.stringify(v)}>
                  {typeof v === 'string' ? v : JSON.stringify(v)}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    case 'number':
    case 'integer':
      return (
        <TextField
          label={label}
          type="number"
          step={variable.type === 'integer' ? 1 : 'any'}
          min={variable.minimum}
          max={variable.maximum}
          inputMode={variable.type === 'integer' ? 'numeric' : 'decimal'}
          required={variable.required}
          value={String(value)}
          error={error}
          hint={hint}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'object':
    case 'array':
      return (
        <Field label={`${label} (${variable.type}, JSON)`} required={variable.required} hint={hint} error={error}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              className="textarea code"
              rows={3}
              spellCheck={false}
              required={variable.required}
              placeholder={variable.type === 'object' ? '{}' : '[]'}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              value={String(value)}
              onChange={(e) => onChange(e.target.value)}
            />
          )}
        </Field>
      );
    default:
      return <TextField label={label} required={variable.required} value={String(value)} error={error} hint={hint} maxLength={variable.max_length} onChange={(e) => onChange(e.target.value)} />;
  }
}

/** The streamed run: answer, steps, tool calls, then output, usage, latency and the link to its record. */
function RunResult({ view, latency, org }: { view: RunView; latency: number | undefined; org: string }) {
  const running = view.phase === 'running';
  return (
    <div className="run-result stack">
      <div className={`run-status ${view.phase}`} role="status">
        {running ? 'Running…' : view.phase === 'succeeded' ? `Finished${latency !== undefined ? ` in ${latency} ms` : ''}` : `Failed: ${view.error}`}
      </div>
      <div className="field">
        <span className="field-label">Answer</span>
        <div className="run-answer" role="log" aria-label="Answer" aria-live="polite">
          {view.answer || (running ? <span className="faint">Waiting for the first token…</span> : <span className="faint">No streamed answer</span>)}
        </div>
      </div>
      {view.steps.length > 0 ? (
        <div className="field">
          <span className="field-label">Steps</span>
          <ol className="run-steps" aria-label="Steps">
            {view.steps.map((step) => (
              <li key={step.node} data-status={step.status}>
                <span className="mono">{step.node}</span> <span className="faint">{step.status}</span>
                {step.ms !== undefined ? <span className="faint"> · {Math.round(step.ms)} ms</span> : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {view.tools.length > 0 ? (
        <div className="field">
          <span className="field-label">Tool calls</span>
          <ul className="run-tools" aria-label="Tool calls">
            {view.tools.map((call) => (
              <li key={call.callId}>
                <div>
                  <strong className="mono">{call.tool}</strong> <span className="faint">from {call.node}</span> {call.done ? null : <span className="badge accent">calling…</span>}
                  {call.error !== undefined ? <span className="badge danger">error</span> : null}
                </div>
                <div className="faint small">Arguments</div>
                <pre className="run-json">{show(call.args)}</pre>
                {call.done ? (
                  <>
                    <div className="faint small">{call.error !== undefined ? 'Error' : 'Result'}</div>
                    <pre className="run-json">{show(call.error !== undefined ? call.error : call.result)}</pre>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {view.phase === 'succeeded' ? (
        <>
          <div className="field">
            <span className="field-label">Output</span>
            <pre className="run-json" aria-label="Output">
              {show(view.output)}
            </pre>
          </div>
          <dl className="run-figures">
            <div>
              <dt>Prompt tokens</dt>
              <dd>{view.usage?.prompt_tokens ?? 0}</dd>
            </div>
            <div>
              <dt>Completion tokens</dt>
              <dd>{view.usage?.completion_tokens ?? 0}</dd>
            </div>
            <div>
              <dt>Latency</dt>
              <dd>{latency === undefined ? '…' : `${latency} ms`}</dd>
            </div>
          </dl>
        </>
      ) : null}
      {view.runId ? (
        <Link to={`/orgs/${org}/runs/${encodeURIComponent(view.runId)}`}>Open run {view.runId}</Link>
      ) : null}
    </div>
  );
}
