import { describe, expect, it } from 'vitest';
import { taskItemLines } from '../../web/src/markdown/task-boxes.ts';

describe('taskItemLines (which line a rendered checkbox saves)', () => {
  it('pairs the parser items with their lines, nested and quoted ones included, skipping code', () => {
    const text = ['- [ ] one', '```', '- [ ] two', '```', '- [ ] two', '  - [x] nested', '> - [ ] quoted'].join('\n');
    // The parser gives each item's first raw line without the indentation or quote of its block.
    expect(taskItemLines(text, ['- [ ] one', '- [ ] two', '- [x] nested', '- [ ] quoted'])).toEqual([1, 5, 6, 7]);
  });

  it('leaves an item it cannot pair without a line (read-only), and pairs the rest in order', () => {
    expect(taskItemLines('- [ ] a\n- [ ] b', ['- [ ] a', '- [ ] missing', '- [ ] b'])).toEqual([1, undefined, 2]);
    expect(taskItemLines('- [ ] same\n- [ ] same', ['- [ ] same', '- [ ] same'])).toEqual([1, 2]);
  });
});
