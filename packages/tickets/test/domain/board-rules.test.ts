import { describe, expect, it } from 'vitest';
import { completedAtAfterMove, epicAdvance, epicCompletedAt, resolveColumn, type BoardColumn } from '../../src/domain/board-rules.ts';

const names = ['Backlog', 'To Do', 'In Progress', 'Review', 'Done'];
const main: BoardColumn[] = names.map((name, position) => ({
  id: `m${position}`,
  name,
  boardId: 'main',
  boardName: 'Main',
  boardPosition: 0,
  position,
  isDone: name === 'Done',
}));
const ops: BoardColumn[] = ['Inbox', 'Doing', 'Shipped'].map((name, position) => ({
  id: `o${position}`,
  name,
  boardId: 'ops',
  boardName: 'Ops',
  boardPosition: 1,
  position,
  isDone: name === 'Shipped',
}));
const columns = [...ops, ...main];
const col = (name: string) => columns.find((c) => c.name === name)!;

describe('resolveColumn', () => {
  it('matches case-insensitively and defaults to the first column of the first board', () => {
    expect(resolveColumn(columns, ' in PROGRESS ').id).toBe('m2');
    expect(resolveColumn(columns, undefined).id).toBe('m0');
    expect(resolveColumn(columns, 'ops/doing').id).toBe('o1');
  });
  it('resolves an unqualified name on the first board that has it', () => {
    const twin: BoardColumn = { ...ops[1], id: 'o-review', name: 'Review' };
    expect(resolveColumn([...main, twin], 'review').id).toBe('m3');
  });
  it('refuses an unknown name listing the valid names', () => {
    expect(() => resolveColumn(columns, 'Doing it')).toThrow(
      'Unknown column "Doing it". Valid columns: Backlog, To Do, In Progress, Review, Done, Inbox, Doing, Shipped.',
    );
  });
});

describe('epicAdvance', () => {
  it('moves the epic to the done column when every sub-ticket is done', () => {
    expect(epicAdvance(columns, col('Review'), [col('Done'), col('Done')])).toEqual({ to: col('Done'), reason: 'all sub-tickets are done' });
  });
  it('moves the epic to In Progress when a sub-ticket is in a middle column and the epic is not', () => {
    expect(epicAdvance(columns, col('Backlog'), [col('Backlog'), col('Review')])?.to.name).toBe('In Progress');
    expect(epicAdvance(columns, col('Done'), [col('To Do'), col('Done')])?.to.name).toBe('In Progress');
  });
  it('uses the first middle column on a board without In Progress', () => {
    expect(epicAdvance(columns, col('Inbox'), [col('Doing')])?.to.name).toBe('Doing');
  });
  it('leaves the epic alone when it is already in a middle column, when all sub-tickets are in the first column, or without sub-tickets', () => {
    expect(epicAdvance(columns, col('Review'), [col('To Do')])).toBeUndefined();
    expect(epicAdvance(columns, col('Backlog'), [col('Backlog'), col('Backlog')])).toBeUndefined();
    expect(epicAdvance(columns, col('Review'), [col('Backlog')])).toBeUndefined();
    expect(epicAdvance(columns, col('Backlog'), [])).toBeUndefined();
    expect(epicAdvance(columns, col('Done'), [col('Done')])).toBeUndefined();
  });
});

describe('completedAtAfterMove', () => {
  it('sets completed_at on entering the done column, keeps it inside, clears it on leaving', () => {
    expect(completedAtAfterMove(col('Done'), { completedAt: null, wasDone: false }, 'T2')).toBe('T2');
    expect(completedAtAfterMove(col('Done'), { completedAt: 'T1', wasDone: true }, 'T2')).toBe('T1');
    expect(completedAtAfterMove(col('Review'), { completedAt: 'T1', wasDone: true }, 'T2')).toBeNull();
  });
});

describe('epicCompletedAt', () => {
  it('is when the last sub-ticket was completed, so imported history stays in the past', () => {
    expect(epicCompletedAt(['2023-05-02T00:00:00.000Z', '2023-06-01T00:00:00.000Z'], 'NOW')).toBe('2023-06-01T00:00:00.000Z');
    expect(epicCompletedAt([null], 'NOW')).toBe('NOW');
  });
});
