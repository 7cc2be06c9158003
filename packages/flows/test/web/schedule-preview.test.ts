import { describe, expect, it } from 'vitest';
import { inZone, previewOf, skipReason, timeZones } from '../../web/src/schedules/schedule-preview.ts';

const NOW = new Date('2026-03-27T12:00:00Z');

describe('the Schedules tab preview', () => {
  it("shows the next five times on the zone's own clock, across its change to summer time", () => {
    expect(previewOf('30 2 * * *', 'Europe/Paris', NOW)).toEqual({
      times: ['Sat 28 Mar, 02:30', 'Sun 29 Mar, 03:00', 'Mon 30 Mar, 02:30', 'Tue 31 Mar, 02:30', 'Wed 1 Apr, 02:30'],
    });
    expect(inZone('2026-03-28T01:30:00.000Z', 'Asia/Tokyo')).toBe('Sat 28 Mar, 10:30');
  });

  it('says what is wrong with a rule or a zone, as the server would', () => {
    expect(previewOf('* * * * * *', 'UTC', NOW)).toEqual({ problem: expect.stringMatching(/^"\* \* \* \* \* \*" has 6 fields/) });
    expect(previewOf('0 0 30 2 *', 'UTC', NOW)).toEqual({ problem: '"0 0 30 2 *" never fires (no date matches it)' });
    expect(previewOf('0 * * * *', 'Moon/Base', NOW)).toEqual({ problem: 'Unknown time zone "Moon/Base"' });
  });

  it("offers the reader's zone first and UTC, then every zone the browser knows", () => {
    const zones = timeZones();
    expect(zones[0]).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(zones).toContain('UTC');
    expect(zones).toContain('Europe/Paris');
    expect(new Set(zones).size).toBe(zones.length);
  });

  it('says why a due time was skipped', () => {
    expect([skipReason('missed'), skipReason('coalesced')]).toEqual(['Skipped: missed while no instance ran', 'Skipped: one catch-up run stood for it']);
  });
});
