// **Run**: a form generated from the saved version's Input node, a session id, and the run streamed live:
// the answer as it arrives, node states on the canvas, tool calls, then output, usage, latency and a link.
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Button, FormError, TextField } from '@switchboard/web-kit';
import type { InputVariable } from '../../../src/domain/flow-definition.ts';
import { validateInput } from '../../../src/domain/input-variables.ts';
import type { BuilderApi } from '../api/builder-api.ts';
import type { Definition } from '../canvas/definition.ts';
import { STARTED, finalStatuses, foldRunEvent, readJsonLines, toolStatuses, type RunView } from './run-stream.ts';
import { useBuilder, useBuilderStore } from './use-builder.ts';
import { VariableInput, initialValue, inputOf, type Values } from './run-form.tsx';
import { RunResult } from './run-result.tsx';
import { answered, chatVariable, newSessionId, type ChatTurn } from './chat.ts';
import { ChatLog } from './chat-log.tsx';

/** The Run panel of flow `slug`, running its saved version. */
export function RunPanel({ client, org, slug, onSave }: { client: BuilderApi; org: string; slug: string; onSave: () => Promise<boolean> }) {
  const store = useBuilderStore();
  const version = useBuilder((s) => s.version);
  const dirty = useBuilder((s) => s.dirty);
  // The form follows the version that runs: the saved one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store is mutable; version (a save) is when its saved definition changes.
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
  // Run as a chat: the conversation on screen and its session, kept until New chat.
  const chat = useMemo(() => chatVariable(variables), [variables]);
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [chatSession, setChatSession] = useState(() => newSessionId());
  const newChat = () => {
    abort.current?.abort();
    setTurns([]);
    setChatSession(newSessionId());
    setView(undefined);
  };

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

    const said = chat ? String(values[chat]) : '';
    if (chat) {
      setTurns((all) => [...all, { role: 'user', text: said }]);
      setValues((all) => ({ ...all, [chat]: '' }));
    }
    const sessionId = chat ? chatSession : session.trim();
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
      const response = await client.startRun(slug, { input, metadata: sessionId ? { session_id: sessionId } : undefined }, controller.signal);
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string; details?: Array<{ param: string; message: string }> } } | null;
        const details = body?.error?.details ?? [];
        setProblems(Object.fromEntries(details.filter((d) => d.param.startsWith('input.')).map((d) => [d.param.slice('input.'.length), d.message])));
        setFormError(body?.error?.message ?? `The run was refused (${response.status})`);
        setView(undefined);
        if (chat) setTurns((all) => answered(all, { answer: '', error: body?.error?.message ?? `The run was refused (${response.status})` }));
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
    if (chat) {
      const finished = current;
      const answer = finished.answer || (typeof finished.output === 'string' ? finished.output : JSON.stringify(finished.output ?? ''));
      setTurns((all) => answered(all, { answer, runId: finished.runId, error: finished.phase === 'failed' ? finished.error : undefined }));
    }
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
      {chat ? <ChatLog turns={turns} org={org} pending={running} /> : null}
      <form className="stack" onSubmit={submit} aria-label="Run input" noValidate>
        <FormError>{formError}</FormError>
        {variables.length === 0 ? <p className="faint small">The Input node declares no variables.</p> : null}
        {variables.map((variable) => (
          <VariableInput
            key={variable.name}
            variable={variable}
            value={values[variable.name] ?? ''}
            error={problems[variable.name]}
            onChange={(value) => setValues((all) => ({ ...all, [variable.name]: value }))}
          />
        ))}
        {chat ? (
          <p className="faint small">
            Session <span className="mono">{chatSession}</span>: the flow's memory keeps this conversation until New chat.
          </p>
        ) : (
          <TextField
            label="Session ID"
            value={session}
            onChange={(e) => setSession(e.target.value)}
            hint="metadata.session_id: runs with the same id share memory"
            className="code"
          />
        )}
        <div className="row">
          <Button type="submit" variant="primary" busy={running}>
            Run
          </Button>
          {running ? (
            <Button onClick={() => abort.current?.abort()} variant="ghost">
              Stop
            </Button>
          ) : null}
          {chat ? (
            <Button onClick={newChat} variant="ghost" disabled={turns.length === 0 && !running}>
              New chat
            </Button>
          ) : null}
        </div>
      </form>
      {view ? <RunResult view={view} latency={latency} org={org} /> : null}
    </section>
  );
}
