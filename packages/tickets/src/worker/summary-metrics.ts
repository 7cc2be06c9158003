import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../store/project-store.ts';

/** Number of tickets whose summary is due (projects with Auto-Summary on). */
export async function dueSummaryCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('tickets as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('p.auto_summary', '=', 1)
    .whereRef('t.summarized_version', '<', 't.summary_version')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Registers `tickets_summary_queue_depth`, measured when /metrics is scraped. */
export function registerSummaryMetrics(registry: Registry, db: Db): void {
  new Gauge({
    name: 'tickets_summary_queue_depth',
    help: 'Tickets whose AI summary waits for a refresh',
    registers: [registry],
    async collect() {
      // While the database is away the gauge keeps its last value: /metrics must still answer, with the outage's counters.
      const due = await dueSummaryCount(db).catch(() => undefined);
      if (due !== undefined) this.set(due);
    },
  });
}
