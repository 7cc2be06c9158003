import { describe, expect, it } from 'vitest';
import { AppError } from '@switchboard/core';
import { applyTaskToggle } from '../../src/domain/task-list.ts';
import { parseTaskLine, setTaskLine, taskLineCandidates } from '../../src/domain/markdown-lines.ts';

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('no refusal');
}

describe('task list lines', () => {
  it('recognizes every GFM task item form, and nothing else', () => {
    expect(parseTaskLine('- [ ] Write **docs**')).toEqual({ checked: false, text: 'Write docs' });
    expect(parseTaskLine('  * [x] nested')).toEqual({ checked: true, text: 'nested' });
    expect(parseTaskLine('+ [X] plus\r')).toEqual({ checked: true, text: 'plus' });
    expect(parseTaskLine('12. [ ] numbered')).toEqual({ checked: false, text: 'numbered' });
    expect(parseTaskLine('3) [ ] paren')).toEqual({ checked: false, text: 'paren' });
    expect(parseTaskLine('> - [ ] quoted')).toEqual({ checked: false, text: 'quoted' });
    for (const line of ['- [ ]', '- [ ]no space', '-[ ] x', '[ ] x', '- [y] x', '- text [ ] x', '1234567890. [ ] x']) expect(parseTaskLine(line)).toBeNull();
  });

  it('sets the box and keeps the rest of the line', () => {
    expect(setTaskLine('  - [ ] a [ ] b\r', true)).toBe('  - [x] a [ ] b\r');
    expect(setTaskLine('> 1. [X] done', false)).toBe('> 1. [ ] done');
  });

  it('finds the task lines outside fenced code, with their line numbers', () => {
    const text = [
      '- [ ] one',
      '```',
      '- [ ] in code',
      '```',
      '  - [x] two',
      '~~~~',
      '- [ ] tilde code',
      '~~~',
      '- [ ] still code',
      '~~~~',
      '> - [ ] three',
      '``` `not a fence`',
      '- [ ] four',
    ].join('\n');
    expect(taskLineCandidates(text)).toEqual([
      { line: 1, source: '- [ ] one' },
      { line: 5, source: '  - [x] two' },
      { line: 11, source: '> - [ ] three' },
      { line: 12 + 1, source: '- [ ] four' },
    ]);
  });
});

describe('applyTaskToggle: the one line changes, a concurrent edit is merged or refused, never lost', () => {
  const text = ['# Plan', '', '- [ ] Write docs', '- [x] Ship', '  - [ ] Tell the team'].join('\n');

  it('checks and unchecks the line at its number', () => {
    expect(applyTaskToggle(text, { line: 3, expected: '- [ ] Write docs', checked: true }, true, 'description')).toEqual({
      text: ['# Plan', '', '- [x] Write docs', '- [x] Ship', '  - [ ] Tell the team'].join('\n'),
      line: 3,
      item: 'Write docs',
    });
    expect(applyTaskToggle(text, { line: 4, expected: '- [x] Ship', checked: false }, undefined, 'document').text).toBe(
      ['# Plan', '', '- [ ] Write docs', '- [ ] Ship', '  - [ ] Tell the team'].join('\n'),
    );
  });

  it('merges into a text edited meanwhile: the line moved, the other edit kept', () => {
    const edited = ['# Plan', 'A new first line.', '', '- [ ] Write docs', '- [x] Ship (edited)', '  - [ ] Tell the team', '- [ ] Added'].join('\n');
    expect(applyTaskToggle(edited, { line: 5, expected: '  - [ ] Tell the team', checked: true }, false, 'description')).toEqual({
      text: ['# Plan', 'A new first line.', '', '- [ ] Write docs', '- [x] Ship (edited)', '  - [x] Tell the team', '- [ ] Added'].join('\n'),
      line: 6,
      item: 'Tell the team',
    });
  });

  it('keeps Windows line ends', () => {
    expect(applyTaskToggle('- [ ] a\r\n- [ ] b\r\n', { line: 2, expected: '- [ ] b', checked: true }, true, 'description').text).toBe('- [ ] a\r\n- [x] b\r\n');
  });

  it('refuses when the line was changed, naming what it reads now', () => {
    const changed = text.replace('- [ ] Write docs', '- [x] Write docs');
    expect(refusal(() => applyTaskToggle(changed, { line: 3, expected: '- [ ] Write docs', checked: true }, false, 'description'))).toEqual({
      code: 'conflict',
      message:
        'This item changed since you opened it: "- [ ] Write docs" is no longer in the description (line 3 now reads "- [x] Write docs"). Read the ticket again and toggle the item as it reads now.',
    });
  });

  it('refuses when the line is gone and the text is shorter', () => {
    expect(refusal(() => applyTaskToggle('Nothing left', { line: 3, expected: '- [ ] Write docs', checked: true }, false, 'document'))).toEqual({
      code: 'conflict',
      message:
        'This item changed since you opened it: "- [ ] Write docs" is no longer in the document. Read the document again and toggle the item as it reads now.',
    });
  });

  it('refuses when the line now appears several times after an edit, even at its number', () => {
    const doubled = ['- [ ] Write docs', '- [ ] x', '- [ ] Write docs', '- [ ] Write docs'].join('\n');
    expect(refusal(() => applyTaskToggle(doubled, { line: 3, expected: '- [ ] Write docs', checked: true }, false, 'description'))).toEqual({
      code: 'conflict',
      message:
        'This item changed since you opened it: "- [ ] Write docs" is now on lines 1, 3 and 4 of the description, so which one you meant is unclear. Read the ticket again and toggle the item as it reads now.',
    });
    // The caller read this very text (or did not say): the number decides between the same lines.
    expect(applyTaskToggle(doubled, { line: 3, expected: '- [ ] Write docs', checked: true }, true, 'description').line).toBe(3);
    expect(applyTaskToggle(doubled, { line: 4, expected: '- [ ] Write docs', checked: true }, undefined, 'description').line).toBe(4);
  });

  it('refuses a line that is not a task item, or a box already as asked, with how to fix the call', () => {
    expect(refusal(() => applyTaskToggle(text, { line: 1, expected: '# Plan', checked: true }, true, 'description'))).toEqual({
      code: 'invalid_request',
      message: 'toggle_task.expected must be the task list line as you read it, e.g. "- [ ] Write the docs"; got "# Plan".',
    });
    expect(refusal(() => applyTaskToggle(text, { line: 4, expected: '- [x] Ship', checked: true }, true, 'description'))).toEqual({
      code: 'invalid_request',
      message: 'toggle_task.expected is already checked: send checked: false to uncheck it.',
    });
  });
});
