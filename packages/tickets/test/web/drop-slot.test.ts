import { describe, expect, it } from 'vitest';
import { placedAnnouncement } from '../../web/src/board/announcements.ts';
import { positionOfSlot, sameSlot, slotAt, stepPosition } from '../../web/src/board/drop-slot.ts';
import { stepKeyOf } from '../../web/src/board/keyboard.ts';

// Three cards of To Do on screen, 100 px tall with 8 px between them.
const boxes = [
  { key: 'A-1', top: 100, bottom: 200 },
  { key: 'A-2', top: 208, bottom: 308 },
  { key: 'A-3', top: 316, bottom: 416 },
];

describe('the drop slot (where a dragged card lands in a lane)', () => {
  it('is above the first card whose middle is below the dragged card, else below the last card', () => {
    expect(slotAt('To Do', boxes, 120, 'B-9', 'In Progress')).toEqual({ column: 'To Do', before: 'A-1' });
    expect(slotAt('To Do', boxes, 260, 'B-9', 'In Progress')).toEqual({ column: 'To Do', before: 'A-3' });
    expect(slotAt('To Do', boxes, 500, 'B-9', 'In Progress')).toEqual({ column: 'To Do', after: 'A-3' });
    expect(slotAt('To Do', [...boxes].reverse(), 120, 'B-9', undefined)).toEqual({ column: 'To Do', before: 'A-1' });
  });

  it('is the top of an empty lane', () => {
    expect(slotAt('Done', [], 300, 'A-1', 'To Do')).toEqual({ column: 'Done' });
  });

  it('leaves the dragged card out, and is no slot where the card already is', () => {
    // A-2 dragged over its own lane: right above A-3 or right below A-1 is where it is.
    expect(slotAt('To Do', boxes, 290, 'A-2', 'To Do')).toBeUndefined();
    expect(slotAt('To Do', boxes, 140, 'A-2', 'to do')).toEqual({ column: 'To Do', before: 'A-1' });
    expect(slotAt('To Do', boxes, 500, 'A-2', 'To Do')).toEqual({ column: 'To Do', after: 'A-3' });
    expect(slotAt('To Do', [boxes[0]!], 500, 'A-1', 'To Do')).toBeUndefined();
    // The top card dragged below the next one but one: a real move (no card above it to compare with).
    expect(slotAt('To Do', boxes, 300, 'A-1', 'To Do')).toEqual({ column: 'To Do', before: 'A-3' });
    expect(slotAt('To Do', boxes, 500, 'A-3', 'To Do')).toBeUndefined();
    expect(slotAt('To Do', boxes, 120, 'A-3', 'To Do')).toEqual({ column: 'To Do', before: 'A-1' });
  });

  it('gives move_ticket its position, none for an empty lane (the service puts it at the top)', () => {
    expect(positionOfSlot({ column: 'To Do', before: 'A-1' })).toEqual({ before: 'A-1' });
    expect(positionOfSlot({ column: 'To Do', after: 'A-3' })).toEqual({ after: 'A-3' });
    expect(positionOfSlot({ column: 'Done' })).toBeUndefined();
    expect(sameSlot({ column: 'To Do', before: 'A-1' }, { column: 'To Do', before: 'A-1' })).toBe(true);
    expect(sameSlot({ column: 'To Do', before: 'A-1' }, { column: 'To Do', after: 'A-1' })).toBe(false);
    expect(sameSlot(undefined, undefined)).toBe(true);
    expect(sameSlot(undefined, { column: 'Done' })).toBe(false);
  });
});

describe('Alt+ArrowUp/Down (one place up or down a lane)', () => {
  it('answers the direction for Alt with an up or down arrow only', () => {
    const press = { key: 'ArrowUp', altKey: true, ctrlKey: false, metaKey: false };
    expect(stepKeyOf(press)).toBe('up');
    expect(stepKeyOf({ ...press, key: 'ArrowDown' })).toBe('down');
    expect(stepKeyOf({ ...press, altKey: false })).toBeUndefined();
    expect(stepKeyOf({ ...press, ctrlKey: true })).toBeUndefined();
    expect(stepKeyOf({ ...press, shiftKey: true })).toBeUndefined();
    expect(stepKeyOf({ ...press, key: 'ArrowLeft' })).toBeUndefined();
  });

  it('puts the card above the one above it or below the one below it, and nowhere past the ends', () => {
    const keys = ['A-1', 'A-2', 'A-3'];
    expect(stepPosition(keys, 'A-2', 'up')).toEqual({ before: 'A-1' });
    expect(stepPosition(keys, 'A-2', 'down')).toEqual({ after: 'A-3' });
    expect(stepPosition(keys, 'A-1', 'up')).toBeUndefined();
    expect(stepPosition(keys, 'A-3', 'down')).toBeUndefined();
    expect(stepPosition(keys, 'A-9', 'up')).toBeUndefined();
  });

  it('announces where the service put the card', () => {
    expect(placedAnnouncement('DEMO-2', { before: 'DEMO-5' }, 'Backlog')).toBe('Moved DEMO-2 above DEMO-5 in Backlog.');
    expect(placedAnnouncement('DEMO-2', { after: 'DEMO-5' }, 'Backlog')).toBe('Moved DEMO-2 below DEMO-5 in Backlog.');
    expect(placedAnnouncement('DEMO-2', 'top', 'Review')).toBe('Moved DEMO-2 to the top of Review.');
    expect(placedAnnouncement('DEMO-2', 'bottom', 'Review')).toBe('Moved DEMO-2 to the bottom of Review.');
  });
});
