import { useId } from 'react';
import { dayHourLabel, hourLabel, niceMax } from './scale.ts';

/** One series of an hourly chart: a value per hour (null: nothing to show that hour). */
export interface ChartSeries {
  name: string;
  values: Array<number | null>;
  /** The CSS class that colours it (dashboard.css: series-1 … series-4). */
  tone: 'series-1' | 'series-2' | 'series-3' | 'series-4';
}

const WIDTH = 600;
const HEIGHT = 190;
const MARGIN = { top: 10, right: 10, bottom: 24, left: 52 };

/**
 * A chart of values per hour, drawn as SVG: stacked bars or lines. It carries
 * its title, a one-sentence text alternative (`summary`) as the image's name,
 * and the figures as a table for screen readers and whoever wants numbers.
 */
export function HourlyChart({
  title,
  summary,
  hours,
  series,
  kind,
  format,
  max,
}: {
  title: string;
  summary: string;
  hours: string[];
  series: ChartSeries[];
  kind: 'bars' | 'lines';
  format: (value: number) => string;
  /** Upper bound of the axis (e.g. 1 for rates); else rounded up from the data. */
  max?: number;
}) {
  const titleId = useId();
  const n = Math.max(hours.length, 1);
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const band = plotW / n;
  const highest =
    kind === 'bars'
      ? Math.max(0, ...hours.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0)))
      : Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const top = max ?? niceMax(highest);
  const y = (value: number) => MARGIN.top + plotH - (Math.min(value, top) / top) * plotH;
  const x = (i: number) => MARGIN.left + i * band;
  const gridValues = [0, top / 2, top];
  const labelEvery = n > 12 ? 6 : n > 6 ? 2 : 1;

  return (
    <figure className="chart card">
      <figcaption className="chart-head">
        <h3 id={titleId}>{title}</h3>
        <ul className="chart-legend" aria-hidden="true">
          {series.map((s) => (
            <li key={s.name}>
              <span className={`swatch ${s.tone} ${kind}`} />
              {s.name}
            </li>
          ))}
        </ul>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="chart-svg" role="img" aria-label={`${title}. ${summary}`}>
        {gridValues.map((value) => (
          <g key={value} className="chart-grid">
            <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(value)} y2={y(value)} />
            <text x={MARGIN.left - 6} y={y(value)} dy="0.32em" textAnchor="end">
              {format(value)}
            </text>
          </g>
        ))}
        {hours.map((hour, i) =>
          i % labelEvery === 0 || i === n - 1 ? (
            <text key={hour} className="chart-x" x={x(i) + band / 2} y={HEIGHT - 6} textAnchor="middle">
              {i === n - 1 ? 'now' : hourLabel(hour)}
            </text>
          ) : null,
        )}
        {kind === 'bars'
          ? hours.map((hour, i) => {
              let base = 0;
              return (
                <g key={hour}>
                  {series.map((s) => {
                    const value = s.values[i] ?? 0;
                    if (value <= 0) return null;
                    const y0 = y(base);
                    base += value;
                    const y1 = y(base);
                    return (
                      <rect key={s.name} className={s.tone} x={x(i) + band * 0.15} width={band * 0.7} y={y1} height={Math.max(1, y0 - y1)}>
                        <title>{`${dayHourLabel(hour)}: ${s.name} ${format(value)}`}</title>
                      </rect>
                    );
                  })}
                </g>
              );
            })
          : series.map((s) => (
              <g key={s.name} className={`chart-line ${s.tone}`}>
                {segments(s.values).map((segment) => (
                  <polyline key={segment[0]} points={segment.map((i) => `${x(i) + band / 2},${y(s.values[i]!)}`).join(' ')} />
                ))}
                {s.values.map((value, i) =>
                  value === null ? null : (
                    <circle key={hours[i]} cx={x(i) + band / 2} cy={y(value)} r={2.5}>
                      <title>{`${dayHourLabel(hours[i])}: ${s.name} ${format(value)}`}</title>
                    </circle>
                  ),
                )}
              </g>
            ))}
      </svg>
      <details className="chart-table">
        <summary>Show the figures</summary>
        <table className="table">
          <caption className="sr-only">{title}, per hour</caption>
          <thead>
            <tr>
              <th>Hour</th>
              {series.map((s) => (
                <th key={s.name} className="num">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {hours.map((hour, i) => (
              <tr key={hour}>
                <td>{dayHourLabel(hour)}</td>
                {series.map((s) => (
                  <td key={s.name} className="num">
                    {s.values[i] === null ? '—' : format(s.values[i]!)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** Runs of consecutive hours with a value: each becomes one line, so an hour without runs leaves a gap. */
function segments(values: Array<number | null>): number[][] {
  const result: number[][] = [];
  let current: number[] = [];
  values.forEach((value, i) => {
    if (value === null) {
      if (current.length) result.push(current);
      current = [];
    } else current.push(i);
  });
  if (current.length) result.push(current);
  return result;
}
