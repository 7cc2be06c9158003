/** What started a run, in the words of the Runs table, its filter and a run's page. */
import type { RunTrigger } from '../api/runs-api.ts';

/** Each trigger's name. */
export const TRIGGER_NAMES: Record<RunTrigger, string> = { api: 'API', ui: 'Dashboard', schedule: 'Schedule', mcp: 'MCP' };

/** "API", "Dashboard", "MCP", or "Schedule nightly" for a scheduled run. */
export function triggerText(run: { trigger: RunTrigger; schedule: string | null }): string {
  const name = TRIGGER_NAMES[run.trigger] ?? run.trigger;
  return run.schedule ? `${name} ${run.schedule}` : name;
}
