import { describe, expect, it } from 'vitest';
import { assertColumnDeletable, assertNameFree, doneColumnChange, newBoardColumns, reorderColumns, validName } from '../../src/domain/settings-rules.ts';

const columns = [
  { id: 'a', name: 'Backlog', isDone: false },
  { id: 'b', name: 'Doing', isDone: false },
  { id: 'c', name: 'Done', isDone: true },
];

describe('settings rules', () => {
  it('trims names and refuses empty or too long ones', () => {
    expect(validName('column', '  Review ')).toBe('Review');
    expect(() => validName('board', ' ')).toThrow('A board name must not be empty.');
    expect(() => validName('label', 'x'.repeat(61))).toThrow('A label name must be at most 60 characters.');
  });

  it('compares names without case, except with the one being renamed', () => {
    expect(() => assertNameFree('column', 'doing', columns)).toThrow('A column named "Doing" already exists on this board (names are compared without case). Choose another name.');
    expect(() => assertNameFree('column', 'DOING', columns, 'b')).not.toThrow();
    expect(() => assertNameFree('board', 'Ops', [])).not.toThrow();
  });

  it('gives a new board the default columns, or the given ones with the last as the done column', () => {
    expect(newBoardColumns(undefined)).toEqual([
      { name: 'Backlog', isDone: false },
      { name: 'To Do', isDone: false },
      { name: 'In Progress', isDone: false },
      { name: 'Review', isDone: false },
      { name: 'Done', isDone: true },
    ]);
    expect(newBoardColumns([' Open ', 'Closed'])).toEqual([
      { name: 'Open', isDone: false },
      { name: 'Closed', isDone: true },
    ]);
    expect(() => newBoardColumns([])).toThrow('A board needs at least one column');
    expect(() => newBoardColumns(Array.from({ length: 31 }, (_, i) => `C${i}`))).toThrow('A board has at most 30 columns.');
  });

  it('moves a column to a position, clamping past either end', () => {
    expect(reorderColumns(['a', 'b', 'c'], 'c', 0)).toEqual(['c', 'a', 'b']);
    expect(reorderColumns(['a', 'b', 'c'], 'a', 1)).toEqual(['b', 'a', 'c']);
    expect(reorderColumns(['a', 'b', 'c'], 'a', 99)).toEqual(['b', 'c', 'a']);
    expect(reorderColumns(['a', 'b', 'c'], 'b', 1)).toEqual(['a', 'b', 'c']);
  });

  it('keeps exactly one done column: choosing one unsets the other, unsetting the done column is refused', () => {
    expect(doneColumnChange(columns, 'b', true)).toEqual({ from: columns[2], to: columns[1] });
    expect(doneColumnChange(columns, 'c', true)).toBeUndefined();
    expect(doneColumnChange(columns, 'a', false)).toBeUndefined();
    expect(() => doneColumnChange(columns, 'c', false)).toThrow('"Done" is the board\'s done column and every board has exactly one');
  });

  it('deletes only an empty column that is neither the last nor the done column', () => {
    expect(() => assertColumnDeletable({ ...columns[1], ticketCount: 2 }, 3)).toThrow('Column "Doing" still holds 2 ticket(s): move them to another column first.');
    expect(() => assertColumnDeletable({ ...columns[1], ticketCount: 0 }, 1)).toThrow('"Doing" is the board\'s last column; a board needs at least one.');
    expect(() => assertColumnDeletable({ ...columns[2], ticketCount: 0 }, 3)).toThrow('"Done" is the board\'s done column: make another column the done column first.');
    expect(() => assertColumnDeletable({ ...columns[1], ticketCount: 0 }, 3)).not.toThrow();
  });
});
