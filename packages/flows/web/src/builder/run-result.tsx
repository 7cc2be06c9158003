// The Run panel's account of a run: its status, the answer as it streams, steps, tool calls, output and figures.
import { Link } from 'react-router-dom';
import type { RunView } from './run-stream.ts';

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** The streamed run: answer, steps, tool calls, then output, usage, latency and the link to its record. */
export function RunResult({ view, latency, org }: { view: RunView; latency: number | undefined; org: string }) {
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
          <ul className="plain-list run-tools" aria-label="Tool calls">
            {view.tools.map((call) => (
              <li key={call.callId}>
                <div>
                  <strong className="mono">{call.tool}</strong> <span className="faint">from {call.node}</span>{' '}
                  {call.done ? null : <span className="badge accent">calling…</span>}
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
            {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: names the output block, as the visible label above does (and for getByLabel in the tests). */}
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
      {view.runId ? <Link to={`/orgs/${org}/runs/${encodeURIComponent(view.runId)}`}>Open run {view.runId}</Link> : null}
    </div>
  );
}
