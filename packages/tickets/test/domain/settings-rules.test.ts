import { describe, expect, it } from 'vitest';
import {
  assertBoardFits,
  assertColumnDeletable,
  assertColumnFits,
  assertLabelFits,
  assertNameFree,
  doneColumnChange,
  newBoardColumns,
  reorderColumns,
  validDescription,
  validName,
} from '../../src/domain/settings-rules.ts';

const columns = [
  { id: 'a', name: 'Backlog', isDone: false },
  { id: 'b', name: 'Doing', isDone: false },
  { id: 'c', name: 'Done', isDone: true },
];

describe('settings rules', () => {
  it('trims names and refuses empty or too long ones', () => {
    expect(validName('column', '  Review ')).toBe('Review');
    expect(() => validName('board', ' ')).toThrow('A board name must not be empty.');
    expect(() => validName('label', 'x'.repeat(51))).toThrow('A label name must be at most 50 characters.');
    expect(() => validName('column', 'x'.repeat(61))).toThrow('A column name must be at most 60 characters.');
  });

  it('keeps names on one line, and board, column and label names free of the characters JSON escapes', () => {
    for (const bad of ['In\nProgress', 'Tab\there', 'Bell\u0007', 'C1\u0085']) {
      expect(() => validName('column', bad)).toThrow('A column name must be one line: no line breaks, tabs or other control characters.');
      expect(() => validName('project', bad)).toThrow('A project name must be one line: no line breaks, tabs or other control characters.');
    }
    expect(() => validName('label', 'say "hi"')).toThrow('A label name must not contain double quotes (") or backslashes (\\).');
    expect(() => validName('board', 'back\\slash')).toThrow('A board name must not contain double quotes (") or backslashes (\\).');
    expect(validName('project', 'The "Phoenix" rewrite')).toBe('The "Phoenix" rewrite');
    expect(validName('label', 'x'.repeat(50))).toBe('x'.repeat(50));
    expect(validName('column', " Ünïcödé 😀 / it's fine ")).toBe("Ünïcödé 😀 / it's fine");
    expect(() => validName('project', 'x'.repeat(201))).toThrow('A project name must be at most 200 characters.');
    expect(() => validName('token', 'x'.repeat(101))).toThrow('A token name must be at most 100 characters.');
    expect(() => validDescription('x'.repeat(10_001))).toThrow('A project description must be at most 10000 characters.');
  });

  it('bounds boards, columns and labels per project so that every listing fits its answer', () => {
    expect(() => assertBoardFits({ boards: 9, columns: 35 }, 5)).not.toThrow();
    expect(() => assertBoardFits({ boards: 10, columns: 10 }, 1)).toThrow(
      'A project has at most 10 boards and this one has 10: add columns to one of them instead.',
    );
    expect(() => assertBoardFits({ boards: 3, columns: 36 }, 5)).toThrow(
      'A project has at most 40 columns on all its boards together and this one has 36: a board of 5 more would pass that. Give the board fewer columns, or delete empty ones first.',
    );
    expect(() => assertColumnFits('Main', 29, 39)).not.toThrow();
    expect(() => assertColumnFits('Main', 30, 30)).toThrow('A board has at most 30 columns and "Main" has 30: delete an empty column first.');
    expect(() => assertColumnFits('Ops', 5, 40)).toThrow(
      'A project has at most 40 columns on all its boards together and this one has 40: delete an empty column first.',
    );
    expect(() => assertLabelFits(49)).not.toThrow();
    expect(() => assertLabelFits(50)).toThrow('A project has at most 50 labels and this one has 50: delete one it no longer uses first.');
  });

  it('compares names without case, except with the one being renamed', () => {
    expect(() => assertNameFree('column', 'doing', columns)).toThrow(
      'A column named "Doing" already exists on this board (names are compared without case). Choose another name.',
    );
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
    expect(() => assertColumnDeletable({ ...columns[1], ticketCount: 2 }, 3)).toThrow(
      'Column "Doing" still holds 2 ticket(s): move them to another column first.',
    );
    expect(() => assertColumnDeletable({ ...columns[1], ticketCount: 0 }, 1)).toThrow('"Doing" is the board\'s last column; a board needs at least one.');
    expect(() => assertColumnDeletable({ ...columns[2], ticketCount: 0 }, 3)).toThrow(
      '"Done" is the board\'s done column: make another column the done column first.',
    );
    expect(() => assertColumnDeletable({ ...columns[1], ticketCount: 0 }, 3)).not.toThrow();
  });
});
