import { describe, expect, it } from 'vitest';
import { listView } from '../src/list-view.ts';

const rows = [
  { name: 'Support bot', slug: 'support-bot', version: 3, saved: '2026-01-02' },
  { name: 'Résumé helper', slug: 'resume', version: 12, saved: '2026-01-05' },
  { name: 'router', slug: 'router', version: 1, saved: '' },
];
const text = (r: (typeof rows)[number]) => `${r.name} ${r.slug}`;

describe('a list searched and sorted', () => {
  it('keeps the rows holding every word of the search, ignoring case and accents', () => {
    expect(listView(rows, { search: 'resume', text }).map((r) => r.slug)).toEqual(['resume']);
    expect(listView(rows, { search: '  BOT support ', text }).map((r) => r.slug)).toEqual(['support-bot']);
    expect(listView(rows, { search: 'nothing', text })).toEqual([]);
    expect(listView(rows, { search: '', text })).toEqual(rows);
  });

  it('sorts texts by the locale (case-blind), numbers as numbers, either way, empty keys last', () => {
    expect(listView(rows, { sort: { key: (r) => r.name, direction: 'ascending' } }).map((r) => r.slug)).toEqual(['resume', 'router', 'support-bot']);
    expect(listView(rows, { sort: { key: (r) => r.version, direction: 'descending' } }).map((r) => r.version)).toEqual([12, 3, 1]);
    expect(listView(rows, { sort: { key: (r) => r.saved, direction: 'descending' } }).map((r) => r.slug)).toEqual(['resume', 'support-bot', 'router']);
    expect(listView(rows, { sort: { key: (r) => r.saved, direction: 'ascending' } }).map((r) => r.slug)).toEqual(['support-bot', 'resume', 'router']);
  });
});
