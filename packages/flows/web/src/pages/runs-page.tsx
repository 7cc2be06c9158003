import { useMemo } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, EmptyState, ErrorState, Loading, PageHeader, Pager, count, dateTime, duration, timeAgo, useResource, useTitle } from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import { RUN_STATUSES, RUN_TRIGGERS, runsApi, type RunStatus, type RunTrigger } from '../api/runs-api.ts';
import { costCell } from '../cost/cost-format.ts';
import { TRIGGER_NAMES, triggerText } from '../components/run-trigger.ts';
import { StatusBadge } from '../components/run-status.tsx';
import '../components/dashboard.css';

const PAGE_SIZE = 25;

const timeOfDay = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

/** When a run started: the time today (to the second, runs come close together), else date and time. */
function startedLabel(iso: string, now = new Date()): string {
  const at = new Date(iso);
  return at.toDateString() === now.toDateString() ? `Today ${timeOfDay.format(at)}` : dateTime(iso);
}

/** Where "Previous" goes: the `before` of each page passed on the way here (kept in the history entry, so back and forward keep it). */
interface PagingState {
  trail?: string[];
}

/**
 * **Runs**: newest first, filtered by flow, status and trigger, a page at a time with
 * the API's cursor. Filters and the page are in the URL query
 * (`?flow=…&status=…&trigger=…&before=…`), so a link opens the same list and back/forward work.
 */
export default function RunsPage() {
  const { org, client, base } = useOrg();
  useTitle('Runs', 'Switchboard Flows');
  const runs = useMemo(() => runsApi(client.base), [client.base]);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const trail = (location.state as PagingState | null)?.trail ?? [];
  const flow = params.get('flow') ?? '';
  const statusParam = params.get('status') ?? '';
  const status = (RUN_STATUSES as readonly string[]).includes(statusParam) ? (statusParam as RunStatus) : undefined;
  const triggerParam = params.get('trigger') ?? '';
  const trigger = (RUN_TRIGGERS as readonly string[]).includes(triggerParam) ? (triggerParam as RunTrigger) : undefined;
  const before = params.get('before') ?? '';

  const page = useResource(
    (signal) => runs.list({ flow: flow || undefined, status, trigger, before: before || undefined, limit: PAGE_SIZE }, signal),
    [org, flow, status, trigger, before],
  );
  const flows = useResource((signal) => client.flows(signal), [org]);

  const go = (next: { flow?: string; status?: string; trigger?: string; before?: string }, state: PagingState = {}) => {
    const query = new URLSearchParams();
    if (next.flow) query.set('flow', next.flow);
    if (next.status) query.set('status', next.status);
    if (next.trigger) query.set('trigger', next.trigger);
    if (next.before) query.set('before', next.before);
    const search = query.toString();
    // void: under BrowserRouter navigate() returns nothing; the promise its type allows is a data router's.
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { state });
  };
  const current = { flow, status: status ?? '', trigger: trigger ?? '' };
  const setFilter = (change: { flow?: string; status?: string; trigger?: string }) => go({ ...current, ...change });

  const flowOptions = useMemo(() => {
    const slugs = new Map((flows.data?.flows ?? []).map((f) => [f.slug, f.name]));
    if (flow && !slugs.has(flow)) slugs.set(flow, flow);
    return [...slugs.entries()].sort((a, b) => a[1].localeCompare(b[1]));
  }, [flows.data, flow]);
  const flowNames = useMemo(() => new Map((flows.data?.flows ?? []).map((f) => [f.slug, f.name])), [flows.data]);
  const filtered = Boolean(flow || status || trigger);

  return (
    <>
      <PageHeader title="Runs" />
      <search className="filters" aria-label="Filter runs">
        <label className="inline-field">
          <span>Flow</span>
          <select className="select" value={flow} onChange={(e) => setFilter({ flow: e.target.value })}>
            <option value="">All flows</option>
            {flowOptions.map(([slug, name]) => (
              <option key={slug} value={slug}>
                {name === slug ? slug : `${name} (${slug})`}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Status</span>
          <select className="select" value={status ?? ''} onChange={(e) => setFilter({ status: e.target.value })}>
            <option value="">Any status</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Trigger</span>
          <select className="select" value={trigger ?? ''} onChange={(e) => setFilter({ trigger: e.target.value })}>
            <option value="">Any trigger</option>
            {RUN_TRIGGERS.map((t) => (
              <option key={t} value={t}>
                {TRIGGER_NAMES[t]}
              </option>
            ))}
          </select>
        </label>
        {filtered ? (
          <Button small variant="ghost" onClick={() => go({})}>
            Clear filters
          </Button>
        ) : null}
      </search>
      {page.error ? (
        <ErrorState error={page.error} onRetry={page.reload} />
      ) : !page.data ? (
        <Loading label="Loading runs…" />
      ) : page.data.runs.length === 0 && !before ? (
        <div className="card">
          {filtered ? (
            <EmptyState title="No runs match these filters" action={<Button onClick={() => go({})}>Clear filters</Button>} />
          ) : (
            <EmptyState title="No runs yet">
              Every call of a flow is recorded here with its input, output and trace. Call a flow with a token (see its{' '}
              <Link to={`${base}/flows`}>API page</Link>), or run it from its canvas.
            </EmptyState>
          )}
        </div>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <caption className="sr-only">Runs, newest first</caption>
              <thead>
                <tr>
                  <th>Started</th>
                  <th>Flow</th>
                  <th className="num">Version</th>
                  <th>Status</th>
                  <th className="num">Latency</th>
                  <th className="num">Tokens</th>
                  <th className="num">Cost</th>
                  <th>Trigger</th>
                </tr>
              </thead>
              <tbody>
                {page.data.runs.map((run) => (
                  <tr key={run.id}>
                    <td>
                      <Link to={`${base}/runs/${encodeURIComponent(run.id)}`} title={timeAgo(run.started_at)}>
                        {startedLabel(run.started_at)}
                      </Link>
                      <div className="faint mono run-id">{run.id}</div>
                    </td>
                    <td className="cell-name">
                      <span>{run.deleted_flow ? `${run.deleted_flow.name} (deleted)` : (flowNames.get(run.flow) ?? run.flow)}</span>
                      {flowNames.has(run.flow) && flowNames.get(run.flow) !== run.flow ? <div className="faint mono">{run.flow}</div> : null}
                    </td>
                    <td className="num">{run.version}</td>
                    <td>
                      <StatusBadge status={run.status} />
                    </td>
                    <td className="num">{duration(run.latency_ms)}</td>
                    <td className="num">{count(run.usage?.total_tokens ?? 0)}</td>
                    <td className="num" title={costCell(run.cost).title}>
                      {costCell(run.cost).text}
                    </td>
                    <td>{triggerText(run)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {page.data.runs.length === 0 ? <div className="muted pager-note">No older runs.</div> : null}
          <Pager
            label="Pages of runs"
            status={before ? (trail.length > 0 ? `Page ${trail.length + 1}` : 'Older runs') : 'Page 1'}
            previous={before ? () => go({ ...current, before: trail[trail.length - 1] ?? '' }, { trail: trail.slice(0, -1) }) : undefined}
            next={page.data.next_before ? () => go({ ...current, before: page.data!.next_before! }, { trail: [...trail, before] }) : undefined}
          />
        </>
      )}
    </>
  );
}
