import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from './load.ts';

/** One line of the benchmark table. */
export interface Row {
  scenario: string;
  /** What one request carries, when it is not one unit of work (e.g. a batch of 100 messages). */
  unit?: string;
  service: LoadResult & { peakRssMiB: number };
  baseline?: LoadResult & { label: string };
  /** A figure that is not a load run (delivery rate, memory per stream, time to first byte). */
  note?: string;
}

function fmt(value: number | undefined, digits = 2): string {
  return value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
}

function ratio(service: number, baseline: number | undefined): string {
  return baseline ? `${(service / baseline).toFixed(2)}×` : '–';
}

/** The table as Markdown: scenario, requests/s, p50, p99, peak RSS, the baseline's figures and the ratios. */
function toMarkdown(rows: Row[], meta: Record<string, string>): string {
  const lines = [
    `Run ${meta.date} on ${meta.machine}, ${meta.database}, ${meta.mode}.`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | peak RSS MiB | baseline | base req/s | base p50 | base p99 | p50 ratio | p99 ratio | notes |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const s = row.service;
    const b = row.baseline;
    lines.push(
      `| ${row.scenario} | ${s.rps} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${fmt(s.peakRssMiB, 0)} | ${b?.label ?? '–'} | ${b?.rps ?? '–'} | ${fmt(b?.p50)} | ${fmt(b?.p99)} | ${ratio(s.p50, b?.p50)} | ${ratio(s.p99, b?.p99)} | ${[row.unit, row.note].filter(Boolean).join('; ')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes `NAME.json` and `NAME.md` under bench/results/ and returns the
 * Markdown; NAME is `latest-{sqlite,postgres}[-quick]`, so a quick check never
 * overwrites the last full run.
 */
export function writeResults(dir: string, name: string, rows: Row[], meta: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  const markdown = toMarkdown(rows, meta);
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify({ meta, rows }, null, 2)}\n`);
  writeFileSync(join(dir, `${name}.md`), markdown);
  return markdown;
}
