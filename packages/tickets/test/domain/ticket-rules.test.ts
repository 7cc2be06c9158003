import { describe, expect, it } from 'vitest';
import { assertCanBeParent, assertConvertible, assertMovable, parseTicketRef, parseTimestamp, subTicketPriority } from '../../src/domain/ticket-rules.ts';
import { validateProjectKey } from '../../src/domain/project-rules.ts';
import { clip, extractiveSummary, slugify, validateSlug } from '../../src/domain/text-rules.ts';

const shape = (over: Partial<{ key: string; ticketType: 'task' | 'epic'; parentId: string | null; subTicketCount: number }> = {}) => ({
  key: 'DEMO-1',
  ticketType: 'task' as const,
  parentId: null,
  subTicketCount: 0,
  ...over,
});

describe('ticket ids', () => {
  it('parses keys in any case, numbers, numeric strings and UUIDs', () => {
    expect(parseTicketRef('demo-12')).toEqual({ kind: 'number', number: 12, projectKey: 'DEMO' });
    expect(parseTicketRef(12)).toEqual({ kind: 'number', number: 12 });
    expect(parseTicketRef(' 12 ')).toEqual({ kind: 'number', number: 12 });
    expect(parseTicketRef('7B4247DF-249F-4CB8-8DD3-5DBFE770FAD4')).toEqual({ kind: 'uuid', id: '7b4247df-249f-4cb8-8dd3-5dbfe770fad4' });
  });
  it('refuses anything else, saying which forms work', () => {
    expect(() => parseTicketRef('twelve')).toThrow('ticket_id "twelve" is not a ticket id. Use the ticket key (e.g. DEMO-12), its number (12) or its UUID.');
    expect(() => parseTicketRef(0)).toThrow('is not a ticket id');
    expect(() => parseTicketRef(1.5)).toThrow('is not a ticket id');
    expect(parseTicketRef(999_999_999)).toEqual({ kind: 'number', number: 999_999_999 });
    expect(() => parseTicketRef(1_000_000_000)).toThrow('ticket_id "1000000000" is not a ticket id.');
  });
});

describe('hierarchy', () => {
  it('keeps sub-tickets one level deep', () => {
    expect(() => assertCanBeParent(shape({ parentId: 'x' }))).toThrow('DEMO-1 is a sub-ticket and cannot have sub-tickets');
    expect(() => assertCanBeParent(shape())).not.toThrow();
  });
  it('refuses moving an epic with sub-tickets', () => {
    expect(() => assertMovable(shape({ ticketType: 'epic', subTicketCount: 2 }))).toThrow('epics advance automatically');
    expect(() => assertMovable(shape({ ticketType: 'epic' }))).not.toThrow();
  });
  it('converts only standalone tickets under a non-sub-ticket', () => {
    const epic = { ...shape({ key: 'DEMO-2' }), id: 'e' };
    expect(() => assertConvertible(shape({ parentId: 'p' }), epic, 't')).toThrow('already a sub-ticket');
    expect(() => assertConvertible(shape({ subTicketCount: 1 }), epic, 't')).toThrow('has sub-tickets of its own');
    expect(() => assertConvertible(shape(), { ...epic, parentId: 'p' }, 't')).toThrow('cannot have sub-tickets');
    expect(() => assertConvertible(shape(), epic, 'e')).toThrow('cannot become a sub-ticket of itself');
    expect(() => assertConvertible(shape(), epic, 't')).not.toThrow();
  });
  it("gives a sub-ticket its parent's priority unless one is given", () => {
    expect(subTicketPriority('high', undefined)).toBe('high');
    expect(subTicketPriority('high', 'low')).toBe('low');
  });
});

describe('values', () => {
  it('validates project keys', () => {
    expect(validateProjectKey('DEMO2')).toBe('DEMO2');
    for (const bad of ['D', 'demo', '2DEMO', 'ABCDEFGHIJK', 'DE-MO']) expect(() => validateProjectKey(bad)).toThrow('is invalid');
  });
  it('normalizes backdated timestamps and refuses non-ISO text', () => {
    expect(parseTimestamp('2024-03-01')).toBe('2024-03-01T00:00:00.000Z');
    expect(() => parseTimestamp('03/01/2024')).toThrow('not an ISO 8601 date-time');
  });
  it('makes and checks slugs', () => {
    expect(slugify('Getting Started — Über Guide!')).toBe('getting-started-uber-guide');
    expect(slugify('!!!')).toBe('page');
    expect(() => validateSlug('Bad Slug')).toThrow('is invalid');
  });
  it('clips by characters and says whether it cut', () => {
    expect(clip('abcdef', 3)).toEqual({ text: 'abc', truncated: true });
    expect(clip('abc', 3)).toEqual({ text: 'abc', truncated: false });
  });
  it('makes an extractive summary of at most 200 characters from title and first sentences', () => {
    expect(extractiveSummary('Add login', `## Goal\nUsers sign in with **email**. Then more. ${'x'.repeat(300)}`)).toBe(
      'Add login. Users sign in with email. Then more.',
    );
    expect(extractiveSummary('T', 'y'.repeat(500)).length).toBeLessThanOrEqual(200);
  });
});
