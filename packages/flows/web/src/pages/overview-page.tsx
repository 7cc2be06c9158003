import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { EmptyState, ErrorState, Loading, PageHeader, count, duration, useResource, useTitle } from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import { runsApi, type RunStats, type WindowFigures } from '../api/runs-api.ts';
import type { FlowSummary } from '../api/types.ts';
import { HourlyChart } from '../charts/hourly-chart.tsx';
import { usd } from '../cost/cost-format.ts';
import '../components/dashboard.css';

const HOURS = 24;

/** "12.5%"; "—" when nothing finished. */
function rate(value: number | null): string {
  return value === null ? '—' : `${Number((value * 100).toFixed(1))}%`;
}

/**
 * **Overview**: the organization's last 24 hours per hour: runs, failure
 * rate, p50/p95 latency, tokens and cost, for all flows or one (`?flow=SLUG`), and
 * a table of every flow; what to do first when nothing has run yet.
 */
export default function OverviewPage() {
  const { org, client, base } = useOrg();
  useTitle('Overview', 'Switchboard Flows');
  const runs = useMemo(() => runsApi(client.base), [client.base]);
  const stats = useResource((signal) => runs.stats(HOURS, signal), [org]);
  const flows = useResource((signal) => client.flows(signal), [org]);
  const [params, setParams] = useSearchParams();
  const selected = params.get('flow') ?? '';

  const header = <PageHeader title="Overview" />;
  if (stats.error) {
    return (
      <>
        {header}
        <ErrorState error={stats.error} onRetry={stats.reload} />
      </>
    );
  }
  if (!stats.data || (!flows.data && !flows.error)) {
    return (
      <>
        {header}
        <Loading label="Loading the last 24 hours…" />
      </>
    );
  }
  if (stats.data.total.runs === 0) {
    return (
      <>
        {header}
        <GettingStarted base={base} flows={flows.data?.flows ?? []} />
      </>
    );
  }

  const data = stats.data;
  const names = new Map((flows.data?.flows ?? []).map((f) => [f.slug, f.name]));
  const current = data.flows.find((f) => f.flow === selected);
  const figures: WindowFigures = current ?? data.total;
  const scope = current ? `flow ${names.get(current.flow) ?? current.flow}` : 'all flows';

  return (
    <>
      <PageHeader title="Overview">
        <label className="inline-field">
          <span>Flow</span>
          <select
            className="select"
            value={current ? selected : ''}
            onChange={(e) => setParams(e.target.value ? { flow: e.target.value } : {}, { replace: false })}
          >
            <option value="">All flows</option>
            {data.flows.map((f) => (
              <option key={f.flow} value={f.flow}>
                {names.get(f.flow) ?? f.flow}
              </option>
            ))}
          </select>
        </label>
      </PageHeader>
      <p className="muted page-intro">
        The last {HOURS} hours of {scope}, by hour (your time zone).
      </p>
      <Tiles figures={figures} />
      <Charts stats={data} figures={figures} scope={scope} />
      <FlowTable stats={data} names={names} base={base} onPick={(flow) => setParams({ flow })} />
    </>
  );
}

/** The window's totals. */
function Tiles({ figures }: { figures: WindowFigures }) {
  const tiles: Array<[string, string, string?]> = [
    ['Runs', count(figures.runs)],
    ['Failed', count(figures.failed), figures.failed > 0 ? 'danger' : undefined],
    ['Failure rate', rate(figures.failure_rate), figures.failed > 0 ? 'danger' : undefined],
    ['Latency p50', duration(figures.p50_ms)],
    ['Latency p95', duration(figures.p95_ms)],
    ['Tokens', count(figures.prompt_tokens + figures.completion_tokens)],
    ['Cost', usd(figures.cost_usd)],
  ];
  return (
    <dl className="tiles">
      {tiles.map(([label, value, tone]) => (
        <div key={label} className="tile card">
          <dt>{label}</dt>
          <dd className={tone}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Charts({ stats, figures, scope }: { stats: RunStats; figures: WindowFigures; scope: string }) {
  const hours = stats.hours;
  const byHour = new Map(figures.by_hour.map((h) => [h.hour, h]));
  const at = (hour: string) => byHour.get(hour);
  const busiest = figures.by_hour.reduce((best, h) => (h.runs > (best?.runs ?? 0) ? h : best), undefined as (typeof figures.by_hour)[number] | undefined);
  // Axis labels and tooltips: "2.5 s", not duration()'s "2.50 s".
  const ms = (value: number) => (value < 1000 ? `${Math.round(value)} ms` : `${Number((value / 1000).toFixed(2))} s`);
  return (
    <div className="charts">
      <HourlyChart
        title="Runs per hour"
        summary={`${figures.runs} runs of ${scope} in the last ${hours.length} hours, ${figures.failed} failed${busiest ? `; at most ${busiest.runs} in one hour` : ''}.`}
        hours={hours}
        kind="bars"
        format={(v) => count(Math.round(v * 100) / 100)}
        series={[
          { name: 'Succeeded or running', values: hours.map((h) => (at(h) ? at(h)!.runs - at(h)!.failed : 0)), tone: 'series-1' },
          { name: 'Failed', values: hours.map((h) => at(h)?.failed ?? 0), tone: 'series-3' },
        ]}
      />
      <HourlyChart
        title="Failure rate"
        summary={`${rate(figures.failure_rate)} of finished runs failed over the window; hours without finished runs are left empty.`}
        hours={hours}
        kind="lines"
        max={1}
        format={(v) => rate(v)}
        series={[{ name: 'Failed share of finished runs', values: hours.map((h) => at(h)?.failure_rate ?? null), tone: 'series-3' }]}
      />
      <HourlyChart
        title="Latency p50 / p95"
        summary={`Over the window, half the runs took at most ${duration(figures.p50_ms)} and 95% at most ${duration(figures.p95_ms)}.`}
        hours={hours}
        kind="lines"
        format={ms}
        series={[
          { name: 'p50', values: hours.map((h) => at(h)?.p50_ms ?? null), tone: 'series-1' },
          { name: 'p95', values: hours.map((h) => at(h)?.p95_ms ?? null), tone: 'series-2' },
        ]}
      />
      <HourlyChart
        title="Tokens per hour"
        summary={`${count(figures.prompt_tokens)} prompt and ${count(figures.completion_tokens)} completion tokens over the window.`}
        hours={hours}
        kind="bars"
        format={(v) => count(Math.round(v))}
        series={[
          { name: 'Prompt', values: hours.map((h) => at(h)?.prompt_tokens ?? 0), tone: 'series-1' },
          { name: 'Completion', values: hours.map((h) => at(h)?.completion_tokens ?? 0), tone: 'series-4' },
        ]}
      />
      <HourlyChart
        title="Cost per hour"
        summary={`${usd(figures.cost_usd)} of priced model calls over the window (calls to a model without a price count nothing: LLM Hub → Providers → Prices).`}
        hours={hours}
        kind="bars"
        format={(v) => usd(v)}
        series={[{ name: 'Cost (USD)', values: hours.map((h) => at(h)?.cost_usd ?? 0), tone: 'series-2' }]}
      />
    </div>
  );
}

/** Every flow that ran in the window, busiest first; a name shows that flow's charts. */
function FlowTable({ stats, names, base, onPick }: { stats: RunStats; names: Map<string, string>; base: string; onPick: (flow: string) => void }) {
  return (
    <section className="section" aria-labelledby="per-flow">
      <h2 id="per-flow">Per flow</h2>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Flow</th>
              <th className="num">Runs</th>
              <th className="num">Failed</th>
              <th className="num">Failure rate</th>
              <th className="num">p50</th>
              <th className="num">p95</th>
              <th className="num">Tokens</th>
              <th className="num">Cost</th>
              <th>
                <span className="sr-only">Links</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {stats.flows.map((f) => (
              <tr key={f.flow}>
                <td className="cell-name">
                  <button type="button" className="link-button" onClick={() => onPick(f.flow)} title="Show this flow's charts">
                    {names.get(f.flow) ?? f.flow}
                  </button>
                </td>
                <td className="num">{count(f.runs)}</td>
                <td className="num">{count(f.failed)}</td>
                <td className="num">{rate(f.failure_rate)}</td>
                <td className="num">{duration(f.p50_ms)}</td>
                <td className="num">{duration(f.p95_ms)}</td>
                <td className="num">{count(f.prompt_tokens + f.completion_tokens)}</td>
                <td className="num">{usd(f.cost_usd)}</td>
                <td className="actions-cell">
                  <Link to={`${base}/runs?flow=${encodeURIComponent(f.flow)}`}>Runs</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** No runs yet: the first steps, with what is already done ticked. */
function GettingStarted({ base, flows }: { base: string; flows: FlowSummary[] }) {
  const first = flows[0];
  return (
    <div className="card">
      <EmptyState title={flows.length === 0 ? 'Nothing has run yet' : 'No runs in the last 24 hours'}>
        <p>Charts of runs, failures, latency and tokens appear here once flows are called.</p>
        <ol className="steps">
          <li className={flows.length > 0 ? 'done' : undefined}>
            {flows.length > 0 ? (
              <>
                Create a flow: done (<Link to={`${base}/flows`}>{flows.length === 1 ? '1 flow' : `${flows.length} flows`}</Link>)
              </>
            ) : (
              <>
                <Link to={`${base}/flows`}>Create a flow</Link> on the canvas: an Input, an LLM node and an Output.
              </>
            )}
          </li>
          <li>
            <Link to={`${base}/providers`}>Connect a model provider</Link> and <Link to={`${base}/tokens`}>create a run token</Link>.
          </li>
          <li>
            Call the flow:{' '}
            {first ? (
              <Link to={`${base}/flows/${encodeURIComponent(first.slug)}/api`}>copy a snippet from its API page</Link>
            ) : (
              'every flow has an API page with ready-made snippets'
            )}
            , or run it from its canvas.
          </li>
        </ol>
      </EmptyState>
    </div>
  );
}
