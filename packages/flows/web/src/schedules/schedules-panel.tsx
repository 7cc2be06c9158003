// The canvas page's Schedules tab: a flow's schedules (add, edit, pause, delete), each with its next five
// times in its own time zone and its last runs (design/web.md, "Flows UI"; design/flows.md, "Schedules").
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge, Button, EmptyState, ErrorState, FormDialog, Loading, form, timeAgo, useConfirm, useResource, useToast, type Form } from '@switchboard/web-kit';
import { schedulesApi, type Schedule } from '../api/schedules-api.ts';
import { inZone, previewOf, skipReason, timeZones } from './schedule-preview.ts';
import './schedules.css';

/** The schedule form's values. */
type Values = { name: string; cron: string; timezone: string; input: string; enabled: boolean };

/** Parses the Input field: a JSON object, or what is wrong with it. */
function parseInput(text: string): Record<string, unknown> | string {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : 'Input must be a JSON object, e.g. {"question": "…"}';
  } catch (error) {
    return `Input is not valid JSON: ${(error as Error).message}`;
  }
}

/** The add or edit form of a schedule; the name is fixed once saved. */
function scheduleForm(client: ReturnType<typeof schedulesApi>, existing: Schedule | undefined, exampleInput: Record<string, unknown>): Form<Schedule> {
  const zones = timeZones().map((zone) => ({ value: zone, label: zone }));
  return form<Values, Schedule>({
    title: existing ? `Edit schedule ${existing.name}` : 'Add schedule',
    submitLabel: existing ? 'Save' : 'Add schedule',
    wide: true,
    initial: {
      name: existing?.name ?? '',
      cron: existing?.cron ?? '0 9 * * 1-5',
      timezone: existing?.timezone ?? zones[0].value,
      input: JSON.stringify(existing?.input ?? exampleInput, null, 2),
      enabled: existing?.enabled ?? true,
    },
    fields: (values) => {
      const preview = previewOf(values.cron, values.timezone, new Date());
      return [
        {
          name: 'name',
          label: 'Name',
          required: true,
          disabled: existing !== undefined,
          autoFocus: !existing,
          placeholder: 'nightly-digest',
          hint: 'Letters, digits, ".", "_" or "-"; it names the schedule in runs.',
        },
        [
          {
            name: 'cron',
            label: 'Cron',
            required: true,
            placeholder: '*/15 * * * *',
            hint: 'minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5" for 09:00 on weekdays; at most once a minute.',
          },
          { name: 'timezone', label: 'Time zone', kind: 'select', options: zones },
        ],
        {
          kind: 'custom',
          name: 'preview',
          render: () => (
            <div className="schedule-preview" aria-live="polite">
              {'problem' in preview ? (
                <p className="form-error" role="alert">
                  {preview.problem}
                </p>
              ) : (
                <>
                  <h4>Next five times ({values.timezone})</h4>
                  <ol aria-label="Next five times">
                    {preview.times.map((time) => (
                      <li key={time}>{time}</li>
                    ))}
                  </ol>
                </>
              )}
            </div>
          ),
        },
        { name: 'input', label: 'Input (JSON)', kind: 'textarea', rows: 5, hint: "The same input every time, checked against the flow's Input node." },
        { name: 'enabled', label: 'Active (unticked: paused)', kind: 'checkbox' },
      ];
    },
    check: (values) => {
      if (values.name.trim() === '') return 'Give the schedule a name.';
      const preview = previewOf(values.cron, values.timezone, new Date());
      if ('problem' in preview) return preview.problem;
      const input = parseInput(values.input);
      return typeof input === 'string' ? input : undefined;
    },
    submit: (values) =>
      client.save(values.name.trim(), {
        cron: values.cron.trim(),
        timezone: values.timezone,
        input: parseInput(values.input) as Record<string, unknown>,
        enabled: values.enabled,
      }),
    done: (saved) => `Saved schedule ${saved.name}`,
  });
}

/** One schedule: its rule, state, next times and last runs, and what can be done with it. */
function ScheduleItem({
  schedule,
  runsBase,
  onEdit,
  onToggle,
  onDelete,
}: {
  schedule: Schedule;
  runsBase: string;
  onEdit(): void;
  onToggle(): void;
  onDelete(): void;
}) {
  const heading = `schedule-${schedule.name}`;
  return (
    <li className="card schedule" aria-labelledby={heading}>
      <div className="row between">
        <h3 id={heading}>{schedule.name}</h3>
        {schedule.enabled ? <Badge kind="success">Active</Badge> : <Badge kind="warning">Paused</Badge>}
      </div>
      <p>
        <code className="inline-code">{schedule.cron}</code> in {schedule.timezone}
      </p>
      {schedule.enabled ? (
        <>
          <h4>Next five times ({schedule.timezone})</h4>
          <ol aria-label={`Next five times of ${schedule.name}`} className="schedule-times">
            {schedule.next_runs.map((time) => (
              <li key={time}>
                <time dateTime={time}>{inZone(time, schedule.timezone)}</time>
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p className="muted">Paused: nothing runs until it is resumed; times that pass meanwhile are not caught up.</p>
      )}
      <h4>Last runs</h4>
      {schedule.recent.length === 0 ? (
        <p className="muted">Not run yet.</p>
      ) : (
        <ul aria-label={`Last runs of ${schedule.name}`} className="schedule-fires">
          {schedule.recent.map((fire) => (
            <li key={fire.due_at}>
              <time dateTime={fire.due_at} title={inZone(fire.due_at, schedule.timezone)}>
                {timeAgo(fire.due_at)}
              </time>{' '}
              {fire.run_id ? (
                <Link to={`${runsBase}/${encodeURIComponent(fire.run_id)}`}>
                  <Badge kind={fire.status === 'succeeded' ? 'success' : fire.status === 'failed' ? 'danger' : 'accent'}>{fire.status}</Badge>
                </Link>
              ) : (
                <span className="muted">{skipReason(fire.reason)}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <Button onClick={onEdit}>Edit</Button>
        <Button onClick={onToggle}>{schedule.enabled ? 'Pause' : 'Resume'}</Button>
        <Button variant="danger" onClick={onDelete}>
          Delete
        </Button>
      </div>
    </li>
  );
}

/** The Schedules tab of flow `slug`; `exampleInput` fills a new schedule's Input from the flow's Input node. */
export function SchedulesPanel({ base, org, slug, exampleInput }: { base: string; org: string; slug: string; exampleInput: Record<string, unknown> }) {
  const client = useMemo(() => schedulesApi(base, slug), [base, slug]);
  const schedules = useResource((signal) => client.list(signal), [client]);
  const [editing, setEditing] = useState<{ schedule?: Schedule } | undefined>(undefined);
  const notify = useToast();
  const runsBase = `/orgs/${encodeURIComponent(org)}/runs`;
  const confirm = useConfirm<Schedule>({
    title: (s) => `Delete schedule ${s.name}?`,
    message: () => <p>It stops running at once; its runs stay in Runs.</p>,
    confirmLabel: 'Delete',
    run: (s) => client.remove(s.name),
    done: (s) => `Deleted schedule ${s.name}`,
    after: () => schedules.reload(),
  });
  const toggle = async (s: Schedule) => {
    try {
      await client.save(s.name, { cron: s.cron, timezone: s.timezone, input: s.input, enabled: !s.enabled });
      notify(s.enabled ? `Paused ${s.name}` : `Resumed ${s.name}`);
      schedules.reload();
    } catch (error) {
      notify((error as Error).message, 'error');
    }
  };

  let body: ReactNode;
  if (schedules.error) body = <ErrorState error={schedules.error} title="The schedules could not be loaded" onRetry={schedules.reload} />;
  else if (!schedules.data) body = <Loading label="Loading the schedules…" />;
  else if (schedules.data.schedules.length === 0) {
    body = (
      <EmptyState title="No schedules" action={<Button onClick={() => setEditing({})}>Add schedule</Button>}>
        <p>Run this flow's latest version at set times (a cron rule in a time zone) with a fixed input. Each time runs once, however many instances serve.</p>
      </EmptyState>
    );
  } else {
    body = (
      <>
        <div className="row between">
          <h2 className="panel-heading">Schedules</h2>
          <Button small variant="primary" onClick={() => setEditing({})}>
            Add schedule
          </Button>
        </div>
        <ul className="stack schedules" aria-label="Schedules">
          {schedules.data.schedules.map((s) => (
            <ScheduleItem
              key={s.name}
              schedule={s}
              runsBase={runsBase}
              onEdit={() => setEditing({ schedule: s })}
              onToggle={() => void toggle(s)}
              onDelete={() => confirm.ask(s)}
            />
          ))}
        </ul>
      </>
    );
  }
  return (
    <section className="panel-section stack" aria-label="Schedules of this flow">
      {body}
      {editing ? (
        <FormDialog
          spec={scheduleForm(client, editing.schedule, exampleInput)}
          onClose={() => setEditing(undefined)}
          onDone={() => {
            setEditing(undefined);
            schedules.reload();
          }}
        />
      ) : null}
      {confirm.dialog}
    </section>
  );
}
