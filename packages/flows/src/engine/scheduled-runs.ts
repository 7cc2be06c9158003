import { type FlowsError, invalidWith } from '../domain/errors.ts';
import { validateInput } from '../domain/input-variables.ts';
import type { DueSchedule } from '../store/schedule-store.ts';
import type { ScheduledRunStarter } from '../worker/schedule-worker.ts';
import type { RunIds, RunPlan, RunService } from './run-service.ts';

/**
 * Runs a claimed due time: the flow's latest version with the schedule's input, recorded like any run with
 * `"trigger": "schedule"` and the schedule's name. An input that the flow's current version refuses (it
 * changed since the schedule was saved) is recorded as a failed run with the 422 the API would answer.
 */
export function scheduledRunStarter(runs: RunService): ScheduledRunStarter {
  return async (schedule: DueSchedule, _dueAt: string, runId: string) => {
    // The version read with the due schedule: a save since then is a later due time's.
    const flow = await runs.load(schedule.orgId, schedule.flowSlug, { slug: schedule.flowSlug, id: schedule.flowId, version: schedule.flowVersion });
    const principal = {
      tokenId: null,
      actor: `schedule:${schedule.name}`,
      scope: 'run' as const,
      orgId: schedule.orgId,
      orgCode: schedule.orgCode,
      providersVersion: schedule.providersVersion,
    };
    const ids: RunIds = { runId, completionId: runId.replace(/^run_/, 'chatcmpl-'), created: Math.floor(Date.now() / 1000) };
    const checked = validateInput(flow.compiled.variables, schedule.input);
    const plan: RunPlan = {
      principal,
      flow,
      input: checked.ok ? checked.input : schedule.input,
      metadata: {},
      conversation: [],
      trigger: 'schedule',
      schedule: schedule.name,
    };
    if (!checked.ok) {
      const refused: FlowsError = invalidWith('invalid_input', checked.problems);
      await runs.recordRefused(plan, ids, refused);
      return 'failed';
    }
    const outcome = await runs.start(plan, { ids, streaming: false, emit: () => undefined }).outcome;
    return outcome.ok ? 'succeeded' : 'failed';
  };
}
