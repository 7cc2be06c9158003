/** Scales of the hand-drawn charts: round axis maxima and hour labels. */

/** The smallest round number (1, 2, 2.5, 5 × 10^n) at or above `value`; 1 for 0 or less. */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= value - 1e-9) ?? value;
}

// 24-hour clock: "14:00" is shorter than "02:00 PM" under every bar.
const hourFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dayHourFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** "14:00" in the reader's time zone. */
export function hourLabel(iso: string): string {
  return hourFormat.format(new Date(iso));
}

/** "Tue 14:00", for tables and tooltips that span days. */
export function dayHourLabel(iso: string): string {
  return dayHourFormat.format(new Date(iso));
}
