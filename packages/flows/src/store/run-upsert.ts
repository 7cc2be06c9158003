import type { CompiledQuery, Kysely } from 'kysely';
import type { FlowsDatabase } from './database.ts';

/** A run record as stored (run-store.ts's RunRow, named here too: run-store imports this file). */
type RunRow = FlowsDatabase['runs'];

/** An upsert's statement for one number of rows, and where each of its parameters comes from. */
interface UpsertTemplate {
  query: CompiledQuery;
  /** Per parameter: the row and column it is read from, or undefined for one of the statement's own (`'running'`). */
  slots: Array<readonly [row: number, column: keyof RunRow] | undefined>;
}

/** Statements kept (one per number of rows, up to the recorder's largest batch, and a margin). */
const TEMPLATES = 256;

/**
 * Stores run rows in one statement: a run's end replaces the row its id has
 * (`running`, or failed by a sweep); a `running` row never replaces one, so a
 * late "still running" write cannot undo the run's end.
 */
function upsertQuery(db: Kysely<FlowsDatabase>, rows: RunRow[]) {
  return db
    .insertInto('runs')
    .values(rows)
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          output: eb.ref('excluded.output'),
          error: eb.ref('excluded.error'),
          usage: eb.ref('excluded.usage'),
          latency_ms: eb.ref('excluded.latency_ms'),
          finished_at: eb.ref('excluded.finished_at'),
          trace: eb.ref('excluded.trace'),
          cost_usd: eb.ref('excluded.cost_usd'),
          cost_priced: eb.ref('excluded.cost_priced'),
        }))
        .where('excluded.status', '<>', 'running'),
    );
}

/**
 * The upsert of run rows (upsertQuery), its statement built and compiled by
 * Kysely once per number of rows and columns, then run with each batch's
 * values. Kysely builds an operation node per value: a `running` record
 * written alone cost more in building than in SQLite, and a batch of 200
 * rows some 130 µs a row (`bench/streams-probe.ts`). The template is compiled
 * from rows of marker values, so each parameter's place is Kysely's own.
 * Rows with an undefined value (Kysely writes DEFAULT for it) are built as
 * before.
 */
export function runUpsert(db: Kysely<FlowsDatabase>): (rows: RunRow[]) => Promise<void> {
  const templates = new Map<string, UpsertTemplate>();
  const templateFor = (columns: Array<keyof RunRow>, count: number): UpsertTemplate => {
    const key = `${count}:${columns.join(',')}`;
    let template = templates.get(key);
    if (template) return template;
    const places = new Map<string, readonly [number, keyof RunRow]>();
    const markers = Array.from({ length: count }, (_, row) => {
      const marked: Record<string, string> = {};
      for (const column of columns) {
        const marker = `\u0000${row}\u0000${column}`;
        places.set(marker, [row, column]);
        marked[column] = marker;
      }
      return marked as unknown as RunRow;
    });
    const query = upsertQuery(db, markers).compile();
    template = { query, slots: query.parameters.map((parameter) => (typeof parameter === 'string' ? places.get(parameter) : undefined)) };
    if (templates.size >= TEMPLATES) templates.delete(templates.keys().next().value!);
    templates.set(key, template);
    return template;
  };
  return async (rows) => {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]) as Array<keyof RunRow>;
    const uniform = rows.every((row) => {
      const keys = Object.keys(row);
      return keys.length === columns.length && keys.every((key, i) => key === columns[i] && row[key as keyof RunRow] !== undefined);
    });
    if (!uniform) {
      await upsertQuery(db, rows).execute();
      return;
    }
    const { query, slots } = templateFor(columns, rows.length);
    const parameters = slots.map((slot, i) => (slot ? rows[slot[0]][slot[1]] : query.parameters[i]));
    await db.executeQuery({ ...query, parameters });
  };
}
