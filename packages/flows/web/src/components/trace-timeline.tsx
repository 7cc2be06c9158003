import { duration } from '@switchboard/web-kit';
import type { Run, TraceEntry } from '../api/types.ts';
import { StatusBadge } from './run-status.tsx';
import { JsonView } from './json-view.tsx';
import { SentMessages } from './sent-messages.tsx';

/** A tool call as the trace records it on its LLM node. */
interface ToolCall {
  tool: string;
  call_id?: string;
  node?: string;
  args?: unknown;
  result?: unknown;
  error?: unknown;
}

/** An entry placed on the run's time axis: offset from the run's start and duration, in ms. */
export interface PlacedEntry {
  entry: TraceEntry;
  offset: number;
  ms: number;
}

/** Places each trace entry on the run's time axis; `span` is the axis length (the run's latency, or the last entry's end). */
export function placeTrace(run: Pick<Run, 'started_at' | 'latency_ms' | 'trace'>): { entries: PlacedEntry[]; span: number } {
  const start = Date.parse(run.started_at);
  const entries = (run.trace ?? []).map((entry) => {
    const at = Date.parse(entry.started_at);
    const offset = Number.isFinite(at) && Number.isFinite(start) ? Math.max(0, at - start) : 0;
    return { entry, offset, ms: Math.max(0, entry.ms ?? 0) };
  });
  const end = entries.reduce((max, placed) => Math.max(max, placed.offset + placed.ms), 0);
  return { entries, span: Math.max(end, run.latency_ms ?? 0, 1) };
}

/** Round tick steps of a time axis: about four ticks whatever the span. */
export function axisTicks(span: number): number[] {
  const rough = span / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= rough) ?? rough;
  const ticks: number[] = [];
  for (let t = 0; t <= span + 1e-9; t += step) ticks.push(Math.round(t * 100) / 100);
  return ticks;
}

/** Milliseconds as the timeline shows them: fractions below 10 ms ("0.01 ms", "1.44 ms"), then as durations read. */
export function fineDuration(ms: number): string {
  if (ms < 10) return `${Number(ms.toFixed(2))} ms`;
  return duration(ms);
}

const percent = (value: number, span: number) => `${Math.min(100, (value / span) * 100)}%`;

/**
 * The trace as a timeline: a list named **Timeline**, one item per trace
 * entry (node id, type, status, ms) with a bar on the run's time axis
 * (offset from the run's start, width = duration); an LLM node's tool calls
 * are marked on it and expand to their arguments and result or error.
 */
export function TraceTimeline({ run }: { run: Pick<Run, 'started_at' | 'latency_ms' | 'trace'> }) {
  const { entries, span } = placeTrace(run);
  if (entries.length === 0) return <div className="muted">This run recorded no trace entries.</div>;
  const ticks = axisTicks(span);
  return (
    <div className="timeline">
      <div className="timeline-axis" aria-hidden="true">
        <div className="timeline-label-col" />
        <div className="timeline-track">
          {ticks.map((tick) => (
            <span key={tick} className="timeline-tick" style={{ left: percent(tick, span) }}>
              {tick === 0 ? '0' : fineDuration(tick)}
            </span>
          ))}
        </div>
      </div>
      <ol className="timeline-list" aria-label="Timeline">
        {entries.map(({ entry, offset, ms }) => {
          const calls = (entry.tool_calls ?? []) as ToolCall[];
          const failedCalls = calls.filter((call) => call.error !== undefined).length;
          return (
            <li key={`${entry.node}-${entry.started_at}`} className={`timeline-item status-${entry.status}`}>
              <div className="timeline-row">
                <div className="timeline-label-col">
                  <span className="timeline-node mono">{entry.node}</span>
                  <span className="faint">{entry.type}</span>
                  <StatusBadge status={entry.status} />
                  {calls.length > 0 ? (
                    <span className="timeline-tools" title={calls.map((call) => call.tool).join(', ')}>
                      {calls.length} tool {calls.length === 1 ? 'call' : 'calls'}
                    </span>
                  ) : null}
                  <span className="timeline-ms">{fineDuration(ms)}</span>
                </div>
                <div className="timeline-track">
                  {ticks.map((tick) => (
                    <span key={tick} className="timeline-grid" style={{ left: percent(tick, span) }} aria-hidden="true" />
                  ))}
                  <span
                    className="timeline-bar"
                    style={{ left: percent(offset, span), width: `max(3px, ${percent(ms, span)})` }}
                    title={`${entry.node}: starts at +${fineDuration(offset)}, takes ${fineDuration(ms)}`}
                  />
                  <span className="sr-only">
                    from +{fineDuration(offset)} to +{fineDuration(offset + ms)}
                  </span>
                </div>
              </div>
              {entry.error ? <div className="timeline-error">{errorText(entry.error)}</div> : null}
              {calls.length > 0 ? (
                <details className="timeline-details">
                  <summary>
                    {calls.length} tool {calls.length === 1 ? 'call' : 'calls'}
                    {failedCalls > 0 ? `, ${failedCalls} failed` : ''}: {calls.map((call) => call.tool).join(', ')}
                  </summary>
                  <ol className="tool-calls" aria-label={`Tool calls of ${entry.node}`}>
                    {calls.map((call, index) => (
                      <li key={call.call_id ?? index} className={call.error !== undefined ? 'tool-call failed' : 'tool-call'}>
                        <div className="row wrap">
                          <strong className="mono">{call.tool}</strong>
                          {call.node ? <span className="faint">node {call.node}</span> : null}
                          {call.error !== undefined ? <StatusBadge status="failed" /> : <StatusBadge status="succeeded" />}
                        </div>
                        <div className="tool-call-part">
                          <div className="field-label">Arguments</div>
                          <ValueView value={call.args ?? {}} />
                        </div>
                        <div className="tool-call-part">
                          <div className="field-label">{call.error !== undefined ? 'Error' : 'Result'}</div>
                          {call.error !== undefined ? <div className="timeline-error">{errorText(call.error)}</div> : <ValueView value={call.result} />}
                        </div>
                      </li>
                    ))}
                  </ol>
                </details>
              ) : null}
              {entry.model_calls && entry.model_calls.length > 0 ? <SentMessages node={entry.node} calls={entry.model_calls} /> : null}
              {entry.output !== undefined || entry.usage ? (
                <details className="timeline-details">
                  <summary>Output{entry.usage ? ` and usage (${entry.usage.total_tokens} tokens)` : ''}</summary>
                  {entry.output !== undefined ? <JsonView value={entry.output} /> : null}
                  {entry.usage ? (
                    <div className="faint">
                      {entry.usage.prompt_tokens} prompt + {entry.usage.completion_tokens} completion = {entry.usage.total_tokens} tokens
                    </div>
                  ) : null}
                </details>
              ) : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The message of an error as the trace records it (an object with `message`, or text). */
export function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'message' in error) {
    const { message, code } = error as { message: unknown; code?: unknown };
    return code ? `${String(message)} (${String(code)})` : String(message);
  }
  return JSON.stringify(error);
}

/** A flat object (every value text, number, boolean or null) as a list of names and values; anything else as JSON. */
function ValueView({ value }: { value: unknown }) {
  const flat =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length > 0 &&
    Object.values(value).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
  if (!flat) return <JsonView value={value} />;
  return (
    <dl className="kv args">
      {Object.entries(value as Record<string, unknown>).map(([name, v]) => (
        <div key={name} className="contents">
          <dt className="mono">{name}</dt>
          <dd className="mono">{JSON.stringify(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
