import type { App } from '@switchboard/core';
import { z } from 'zod';
import type { FlowSchedules, ScheduleView } from '../flow-schedules.ts';
import { bearer, flowParams } from './schema.ts';

/** A schedule as the API answers it. */
export function presentSchedule(view: ScheduleView) {
  const { schedule } = view;
  return {
    name: schedule.name,
    flow: view.flow,
    cron: schedule.cron,
    timezone: schedule.timezone,
    input: schedule.input,
    enabled: schedule.enabled,
    next_run_at: schedule.nextRunAt,
    next_runs: view.upcoming,
    last_run_at: schedule.lastRunAt,
    last_status: schedule.lastStatus,
    last_run_id: schedule.lastRunId,
    recent: view.recent.map((fire) => ({ due_at: fire.dueAt, status: fire.status, reason: fire.reason, run_id: fire.runId })),
    created_at: schedule.createdAt,
    updated_at: schedule.updatedAt,
  };
}

const scheduleParams = z.object({ org_code: z.string(), slug: z.string(), name: z.string().describe('1-64 letters, digits, ".", "_" or "-"') });
const scheduleBody = z
  .any()
  .describe(
    '{"cron": "*/15 * * * *" (five fields, at most once a minute), "timezone": IANA name (default "UTC"), "input"?: {...} (checked against the flow\'s Input node), "enabled"?: true}',
  );

/** A flow's schedules under /api/llm/{org_code}/flows/{slug}/schedules (manage scope). */
export function registerScheduleRoutes(app: App, deps: { schedules: FlowSchedules }): void {
  const { schedules } = deps;
  const tags = ['schedules'];
  const config = { scope: 'manage' as const };

  app.get(
    '/api/llm/:org_code/flows/:slug/schedules',
    { config, schema: { tags, summary: "A flow's schedules with their next times and last runs", params: flowParams, security: bearer } },
    async (request) => ({ schedules: (await schedules.list(request.principal!.orgId, request.params.slug)).map(presentSchedule) }),
  );

  app.get(
    '/api/llm/:org_code/flows/:slug/schedules/:name',
    { config, schema: { tags, summary: 'One schedule', params: scheduleParams, security: bearer } },
    async (request) => presentSchedule(await schedules.get(request.principal!.orgId, request.params.slug, request.params.name)),
  );

  app.put(
    '/api/llm/:org_code/flows/:slug/schedules/:name',
    {
      config,
      schema: {
        tags,
        summary: 'Create or replace a schedule',
        description:
          'At each due time the flow\'s latest version runs once across all instances, recorded with "trigger": "schedule". ' +
          'A bad cron, an unknown time zone or an input the flow refuses is 422 invalid_schedule naming each problem in error.details. "enabled": false pauses it.',
        params: scheduleParams,
        body: scheduleBody,
        security: bearer,
      },
    },
    async (request) => presentSchedule(await schedules.put(request.principal!.orgId, request.params.slug, request.params.name, request.body)),
  );

  app.delete(
    '/api/llm/:org_code/flows/:slug/schedules/:name',
    { config, schema: { tags, summary: 'Delete a schedule', params: scheduleParams, security: bearer } },
    async (request, reply) => {
      await schedules.delete(request.principal!.orgId, request.params.slug, request.params.name);
      return reply.status(204).send();
    },
  );
}
