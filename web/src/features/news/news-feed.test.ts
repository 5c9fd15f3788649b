import { describe, expect, it } from 'vitest';
import {
  filtersFromSearch,
  highlightParts,
  type NewsEntry,
  nextCursor,
  PAGE_SIZE,
  relativeTime,
  searchFromFilters,
} from './news-feed.ts';

describe('filters in the URL', () => {
  it('reads and writes only what differs from the defaults', () => {
    expect(filtersFromSearch(new URLSearchParams(''))).toEqual({ q: '', category: null, sort: 'newest' });
    const filters = filtersFromSearch(new URLSearchParams('q=ohio&category=Policy&sort=relevance'));
    expect(filters).toEqual({ q: 'ohio', category: 'Policy', sort: 'relevance' });
    expect(searchFromFilters(filters).toString()).toBe('q=ohio&category=Policy&sort=relevance');
    expect(searchFromFilters({ q: '  ', category: null, sort: 'relevance' }).toString()).toBe('');
  });

  it('sorts by relevance only with search text', () => {
    expect(filtersFromSearch(new URLSearchParams('sort=relevance')).sort).toBe('newest');
  });
});

describe('relative time', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  it.each([
    ['2026-11-24T11:59:30Z', 'just now'],
    ['2026-11-24T11:55:00Z', '5 min ago'],
    ['2026-11-24T10:00:00Z', '2 h ago'],
    ['2026-11-21T12:00:00Z', '3 d ago'],
    ['2026-10-01T12:00:00Z', 'Oct 1, 2026'],
  ])('%s reads %s', (iso, text) => {
    expect(relativeTime(iso, now)).toBe(text);
  });
});

describe('highlights', () => {
  it('splits marked matches from plain text', () => {
    expect(highlightParts('Ohio \uE000regulators\uE001 approve \uE000licenses\uE001')).toEqual([
      { text: 'Ohio ', match: false },
      { text: 'regulators', match: true },
      { text: ' approve ', match: false },
      { text: 'licenses', match: true },
    ]);
    expect(highlightParts('plain')).toEqual([{ text: 'plain', match: false }]);
  });
});

describe('pages', () => {
  const entry = (index: number): NewsEntry => ({
    kind: 'article',
    id: `id-${index}`,
    title: 't',
    url: 'https://x.example',
    summary: null,
    image_url: null,
    source_name: 's',
    category: 'Policy',
    published_at: `2026-11-${String(20 - (index % 19)).padStart(2, '0')}T00:00:00Z`,
    is_sample: false,
    also_reported_by: [],
    title_highlight: 't',
    summary_highlight: null,
    rank: 0.5,
  });
  it('continues after the last entry of a full page, and ends on a short one', () => {
    const full = Array.from({ length: PAGE_SIZE }, (_, index) => entry(index));
    expect(nextCursor(full, 'relevance')).toEqual({
      p_before_at: full[PAGE_SIZE - 1]?.published_at,
      p_before_id: `id-${PAGE_SIZE - 1}`,
      p_before_rank: 0.5,
    });
    expect(nextCursor(full, 'newest')?.p_before_rank).toBeNull();
    expect(nextCursor(full.slice(1), 'newest')).toBeUndefined();
  });
});
