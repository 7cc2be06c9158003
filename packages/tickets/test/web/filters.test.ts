import { describe, expect, it } from 'vitest';
import { cardMatcher, filtersFromQuery, hasFilters, queryWithFilters } from '../../web/src/board/filters.ts';
import { card } from './fixtures.ts';

describe('board filters in the URL', () => {
  it('reads and writes the query, keeping other parameters and dropping empty filters', () => {
    const query = queryWithFilters(new URLSearchParams('board=Ops'), { type: 'bug', text: 'login page', priority: '' });
    expect(query.toString()).toBe('board=Ops&type=bug&q=login+page');
    expect(filtersFromQuery(query)).toEqual({ type: 'bug', priority: '', label: '', assignee: '', text: 'login page' });
    expect(hasFilters(filtersFromQuery(new URLSearchParams('board=Ops')))).toBe(false);
    expect(queryWithFilters(query, { type: '' }).toString()).toBe('board=Ops&q=login+page');
  });
});

describe('cardMatcher', () => {
  const ada = { id: 'u1', name: 'Ada', email: 'ada@example.com' };
  const cards = [
    card('DEMO-1', {
      title: 'Fix the login page',
      ticket_type: 'bug',
      priority: 'high',
      labels: [{ id: 'l1', name: 'Frontend', color: '#f00' }],
      assignee: ada,
    }),
    card('DEMO-2', { title: 'Checkout flow', ticket_type: 'epic' }),
    card('DEMO-12', { title: 'Login API', priority: 'high' }),
  ];
  const keys = (filters: Partial<Parameters<typeof cardMatcher>[0]>) =>
    cards.filter(cardMatcher({ type: '', priority: '', label: '', assignee: '', text: '', ...filters })).map((c) => c.key);

  it('keeps cards that match every set filter', () => {
    expect(keys({})).toEqual(['DEMO-1', 'DEMO-2', 'DEMO-12']);
    expect(keys({ type: 'bug' })).toEqual(['DEMO-1']);
    expect(keys({ priority: 'high' })).toEqual(['DEMO-1', 'DEMO-12']);
    expect(keys({ priority: 'high', type: 'task' })).toEqual(['DEMO-12']);
    expect(keys({ label: 'frontend' })).toEqual(['DEMO-1']);
    expect(keys({ assignee: 'ada@example.com' })).toEqual(['DEMO-1']);
    expect(keys({ assignee: 'none' })).toEqual(['DEMO-2', 'DEMO-12']);
  });

  it('matches text against the key and the title, every word, case-insensitively', () => {
    expect(keys({ text: 'LOGIN' })).toEqual(['DEMO-1', 'DEMO-12']);
    expect(keys({ text: 'login api' })).toEqual(['DEMO-12']);
    expect(keys({ text: 'demo-12' })).toEqual(['DEMO-12']);
    expect(keys({ text: '  ' })).toEqual(['DEMO-1', 'DEMO-2', 'DEMO-12']);
  });
});
