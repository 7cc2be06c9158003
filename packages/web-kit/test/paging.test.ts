import { describe, expect, it } from 'vitest';
import { pageSlice, pageStatus } from '../src/paging.ts';

describe('a list shown a page at a time', () => {
  it('slices 120 rows into pages of 50: 1-50, 51-100, 101-120', () => {
    expect(pageSlice(120, 1, 50)).toEqual({ page: 1, pages: 3, start: 0, end: 50 });
    expect(pageSlice(120, 2, 50)).toEqual({ page: 2, pages: 3, start: 50, end: 100 });
    expect(pageSlice(120, 3, 50)).toEqual({ page: 3, pages: 3, start: 100, end: 120 });
  });

  it('moves a page past the end to the last page (the last row of the last page was deleted) and one before the first to the first', () => {
    expect(pageSlice(100, 3, 50)).toEqual({ page: 2, pages: 2, start: 50, end: 100 });
    expect(pageSlice(100, 0, 50)).toEqual({ page: 1, pages: 2, start: 0, end: 50 });
    expect(pageSlice(100, Number.NaN, 50)).toEqual({ page: 1, pages: 2, start: 0, end: 50 });
  });

  it('has one empty page for no rows, and one page for exactly a page of rows', () => {
    expect(pageSlice(0, 1, 50)).toEqual({ page: 1, pages: 1, start: 0, end: 0 });
    expect(pageSlice(50, 1, 50)).toEqual({ page: 1, pages: 1, start: 0, end: 50 });
    expect(pageSlice(51, 2, 50)).toEqual({ page: 2, pages: 2, start: 50, end: 51 });
  });

  it('says which page and which rows are shown', () => {
    expect(pageStatus(pageSlice(120, 3, 50), 120)).toBe('Page 3 of 3 (101–120 of 120)');
    expect(pageStatus(pageSlice(51, 1, 50), 51)).toBe('Page 1 of 2 (1–50 of 51)');
  });
});
