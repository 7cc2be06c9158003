import { describe, expect, it } from 'vitest';
import { describePlace, positionAnchor, positionRefusal, RANK_LIMIT, RANK_STEP, rankBetween, ranksBefore, type RankKey } from '../../src/domain/rank-rules.ts';

/** A lane in memory, placed as the service places tickets: rankBetween, and a renumbering when it answers no room. */
class Lane {
  entries: RankKey[] = [];
  renumbered = 0;
  private next = 1;

  /** Inserts a new ticket at `index` (0 = top); answers its number. */
  insertAt(index: number): number {
    const place = () => rankBetween(this.entries[index - 1]?.rank, this.entries[index]?.rank);
    let rank = place();
    if (rank === undefined) {
      this.renumbered++;
      this.entries = this.entries.map((entry, i) => ({ ...entry, rank: (i + 1) * RANK_STEP }));
      rank = place();
    }
    if (rank === undefined) throw new Error('no room after renumbering');
    const number = this.next++;
    this.entries.splice(index, 0, { rank, number });
    return number;
  }

  /** Whether the ranks, sorted as the store sorts them, give the order the lane was built in. */
  sortedAsBuilt(): boolean {
    const sorted = [...this.entries].sort((a, b) => (ranksBefore(a, b) ? -1 : ranksBefore(b, a) ? 1 : 0));
    return sorted.every((entry, i) => entry.number === this.entries[i]!.number);
  }
}

describe('rank rules', () => {
  it('takes the midpoint between neighbours, one step past an end, and 0 in an empty lane', () => {
    expect(rankBetween(undefined, undefined)).toBe(0);
    expect(rankBetween(undefined, 0)).toBe(-RANK_STEP);
    expect(rankBetween(0, undefined)).toBe(RANK_STEP);
    expect(rankBetween(0, RANK_STEP)).toBe(RANK_STEP / 2);
    expect(rankBetween(10, 13)).toBe(11);
    expect(rankBetween(10, 12)).toBe(11);
  });

  it('answers no room between neighbours one apart or equal, and past the limit at either end', () => {
    expect(rankBetween(10, 11)).toBeUndefined();
    expect(rankBetween(7, 7)).toBeUndefined();
    expect(rankBetween(undefined, -RANK_LIMIT + RANK_STEP - 1)).toBeUndefined();
    expect(rankBetween(RANK_LIMIT - RANK_STEP + 1, undefined)).toBeUndefined();
    expect(rankBetween(undefined, -RANK_LIMIT + RANK_STEP)).toBe(-RANK_LIMIT);
  });

  it('orders by rank, then by the lower number for equal ranks', () => {
    expect(ranksBefore({ rank: 1, number: 9 }, { rank: 2, number: 1 })).toBe(true);
    expect(ranksBefore({ rank: 2, number: 1 }, { rank: 2, number: 3 })).toBe(true);
    expect(ranksBefore({ rank: 2, number: 3 }, { rank: 2, number: 3 })).toBe(false);
    expect(ranksBefore({ rank: 3, number: 1 }, { rank: 2, number: 3 })).toBe(false);
  });

  it('puts 10,000 new tickets at the top of a lane without ever renumbering it', () => {
    const lane = new Lane();
    for (let i = 0; i < 10_000; i++) lane.insertAt(0);
    expect(lane.renumbered).toBe(0);
    expect(lane.entries[0]).toEqual({ rank: -9_999 * RANK_STEP, number: 10_000 });
    expect(lane.sortedAsBuilt()).toBe(true);
  });

  it('keeps the order through 1,000 inserts at one spot, renumbering the lane only once every 16 of them', () => {
    const lane = new Lane();
    lane.insertAt(0);
    lane.insertAt(1);
    // Always right below the first ticket: each new ticket goes between the first and the previous new one.
    for (let i = 0; i < 1_000; i++) lane.insertAt(1);
    expect(lane.entries.map((entry) => entry.number).slice(0, 4)).toEqual([1, 1002, 1001, 1000]);
    expect(lane.entries.at(-1)!.number).toBe(2);
    expect(lane.sortedAsBuilt()).toBe(true);
    expect(lane.renumbered).toBe(62);
    for (const { rank } of lane.entries) expect(Number.isSafeInteger(rank)).toBe(true);
  });

  it('keeps the order through inserts spread over a lane, at the top, the bottom and between', () => {
    const lane = new Lane();
    for (let i = 0; i < 2_000; i++) lane.insertAt((i * 7_919) % (lane.entries.length + 1));
    expect(lane.entries).toHaveLength(2_000);
    expect(lane.sortedAsBuilt()).toBe(true);
    expect(lane.renumbered).toBeLessThan(20);
  });

  it('names the anchor of a before/after position, and says where a ticket went', () => {
    expect(positionAnchor('top')).toBeUndefined();
    expect(positionAnchor('bottom')).toBeUndefined();
    expect(positionAnchor({ before: 'DEMO-5' })).toEqual({ side: 'before', ref: 'DEMO-5' });
    expect(positionAnchor({ after: 7 })).toEqual({ side: 'after', ref: 7 });
    expect(describePlace('top', undefined, 'Backlog')).toBe('to the top of Backlog');
    expect(describePlace('bottom', undefined, 'Review')).toBe('to the bottom of Review');
    expect(describePlace({ before: 'demo-5' }, 'DEMO-5', 'Backlog')).toBe('above DEMO-5 in Backlog');
    expect(describePlace({ after: 5 }, 'DEMO-5', 'Backlog')).toBe('below DEMO-5 in Backlog');
  });

  it('refuses a position as a 422 naming position, with what to do instead', () => {
    const hint = 'Name a ticket of the target column (list_tickets with column_name and order "board"), or use "top" or "bottom".';
    const cases = [
      [{ kind: 'unknown', ref: 'DEMO-99' }, `position names DEMO-99, which is not a ticket of this project. ${hint}`],
      [{ kind: 'other_project', ref: 'OTHER-1', project: 'DEMO' }, `position names OTHER-1, a ticket of another project (this one is DEMO). ${hint}`],
      [
        { kind: 'other_lane', key: 'DEMO-2', column: 'To Do', target: 'Review' },
        `position names DEMO-2, which is in To Do, not in Review (the column the ticket goes to). ${hint}`,
      ],
      [{ kind: 'itself', key: 'DEMO-3' }, 'position names DEMO-3, the ticket being moved. Name another ticket of the column, or use "top" or "bottom".'],
    ] as const;
    for (const [problem, message] of cases) {
      const error = positionRefusal(problem);
      expect({ code: error.code, status: error.status, message: error.message, details: error.details }).toEqual({
        code: 'validation_failed',
        status: 422,
        message,
        details: { field: 'position' },
      });
    }
  });
});
