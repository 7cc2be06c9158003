import { useEffect, useMemo, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ApiError, CopyLine, ErrorState, Loading, NotFoundPage, PageHeader, count, dateTime, duration, useResource, useTitle } from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import { runsApi } from '../api/runs-api.ts';
import type { Run } from '../api/types.ts';
import { StatusBadge } from '../components/run-status.tsx';
import { JsonView } from '../components/json-view.tsx';
import { TraceTimeline, errorText } from '../components/trace-timeline.tsx';
import { costCell } from '../cost/cost-format.ts';
import { triggerText } from '../components/run-trigger.ts';
import '../components/dashboard.css';

/** A running run is read again this often until it finishes. */
const POLL_MS = 2000;

/** A run: input, metadata, output or error, usage, and its trace as a **Timeline**. */
export default function RunPage() {
  const { runId = '' } = useParams();
  const { org, client, base } = useOrg();
  useTitle(`Run ${runId}`, 'Switchboard Flows');
  const runs = useMemo(() => runsApi(client.base), [client.base]);
  const run = useResource((signal) => runs.get(runId, signal), [org, runId]);
  const running = run.data?.status === 'running';
  const { reload } = run;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [running, reload]);

  const crumbs = (
    <>
      <Link to={`${base}/runs`}>Runs</Link>
      <span aria-hidden="true">/</span>
      <span className="mono">{runId}</span>
    </>
  );

  if (run.error) {
    if (run.error instanceof ApiError && run.error.status === 404) {
      return (
        <NotFoundPage title="Run not found" crumbs={crumbs} back={{ to: `${base}/runs`, label: 'See all runs' }}>
          There is no run <code className="inline-code">{runId}</code> in this organization. Check the link, or find the run in the list.
        </NotFoundPage>
      );
    }
    return (
      <>
        <PageHeader title="Run" crumbs={crumbs} />
        <ErrorState error={run.error} onRetry={run.reload} />
      </>
    );
  }
  if (!run.data) {
    return (
      <>
        <PageHeader title="Run" crumbs={crumbs} />
        <Loading label="Loading the run…" />
      </>
    );
  }
  return <RunDetails run={run.data} crumbs={crumbs} base={base} />;
}

function RunDetails({ run, crumbs, base }: { run: Run; crumbs: ReactNode; base: string }) {
  const usage = run.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const hasMetadata = run.metadata && typeof run.metadata === 'object' && Object.keys(run.metadata).length > 0;
  return (
    <>
      <PageHeader
        crumbs={crumbs}
        title={
          <span className="row">
            Run of <span className="mono">{run.flow}</span> <StatusBadge status={run.status} />
          </span>
        }
      />
      <section className="card card-body" aria-label="Summary">
        <dl className="facts">
          <div>
            <dt>Flow</dt>
            <dd>
              {run.deleted_flow ? (
                <span>
                  {run.deleted_flow.name} <span className="mono faint">{run.flow}</span> <span className="badge">deleted</span>
                </span>
              ) : (
                <Link to={`${base}/flows/${encodeURIComponent(run.flow)}`} className="mono">
                  {run.flow}
                </Link>
              )}{' '}
              <span className="faint">v{run.version}</span> · <Link to={`${base}/runs?flow=${encodeURIComponent(run.flow)}`}>its runs</Link>
            </dd>
          </div>
          <div>
            <dt>Started</dt>
            <dd title={run.started_at}>{dateTime(run.started_at)}</dd>
          </div>
          <div>
            <dt>Finished</dt>
            <dd title={run.finished_at ?? undefined}>{run.finished_at ? dateTime(run.finished_at) : <span className="faint">not yet</span>}</dd>
          </div>
          <div>
            <dt>Latency</dt>
            <dd>{duration(run.latency_ms)}</dd>
          </div>
          <div className="wide">
            <dt>Run</dt>
            <CopyLine text={run.id} what="run id" />
          </div>
          <div className="wide">
            <dt>Usage</dt>
            <dd>
              <strong>{count(usage.total_tokens)} tokens</strong>{' '}
              <span className="muted">
                ({count(usage.prompt_tokens)} prompt, {count(usage.completion_tokens)} completion)
              </span>
            </dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd title={costCell(run.cost).title}>{costCell(run.cost).text}</dd>
          </div>
          <div>
            <dt>Trigger</dt>
            <dd>{triggerText(run)}</dd>
          </div>
        </dl>
      </section>

      <section className="section" aria-labelledby="run-result">
        <h2 id="run-result">{run.status === 'failed' ? 'Error' : 'Output'}</h2>
        {run.status === 'failed' ? (
          <div className="notice danger run-error" role="note">
            {errorText(run.error ?? 'The run failed without an error message.')}
          </div>
        ) : run.status === 'running' ? (
          <div className="muted">The run is still going; this page follows it.</div>
        ) : (
          <RunOutput output={run.output} />
        )}
      </section>

      <section className="section" aria-labelledby="run-trace">
        <h2 id="run-trace">Trace</h2>
        <TraceTimeline run={run} />
      </section>

      <div className="grid-2 section">
        <section aria-labelledby="run-input">
          <h2 id="run-input">Input</h2>
          <JsonView value={run.input ?? {}} />
        </section>
        <section aria-labelledby="run-metadata">
          <h2 id="run-metadata">Metadata</h2>
          {hasMetadata ? <JsonView value={run.metadata} /> : <div className="muted">None</div>}
        </section>
      </div>
    </>
  );
}

/** The assistant's answer of a ChatCompletion output, else undefined. */
export function answerOf(output: unknown): string | undefined {
  const choices = (output as { object?: unknown; choices?: Array<{ message?: { content?: unknown } }> } | null)?.choices;
  if ((output as { object?: unknown } | null)?.object !== 'chat.completion' || !Array.isArray(choices)) return undefined;
  const content = choices[0]?.message?.content;
  return typeof content === 'string' ? content : undefined;
}

/** A run's output: a ChatCompletion's answer as text with the whole response on demand; raw text as it is; any other JSON pretty-printed. */
function RunOutput({ output }: { output: unknown }) {
  const answer = answerOf(output);
  if (answer === undefined) return <JsonView value={output} />;
  return (
    <div className="stack tight">
      <JsonView value={answer} />
      <details className="timeline-details">
        <summary>The whole ChatCompletion response</summary>
        <JsonView value={output} />
      </details>
    </div>
  );
}
