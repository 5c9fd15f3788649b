import { describe, expect, it } from 'vitest';
import {
  EMPTY_POST,
  fromLocalInput,
  parseAdminPost,
  parsePostFilters,
  postFiltersSearch,
  postProblems,
  postState,
  toLocalInput,
  withImage,
} from './posts.ts';

describe('postState', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  it('tells drafts, scheduled and published posts apart', () => {
    expect(postState({ status: 'draft', publishAt: null }, now)).toBe('draft');
    expect(postState({ status: 'draft', publishAt: '2026-12-01T00:00:00Z' }, now)).toBe('draft');
    expect(postState({ status: 'published', publishAt: '2026-12-01T00:00:00Z' }, now)).toBe('scheduled');
    expect(postState({ status: 'published', publishAt: '2026-11-01T00:00:00Z' }, now)).toBe('published');
    expect(postState({ status: 'published', publishAt: null }, now)).toBe('published');
  });
});

describe('postProblems', () => {
  it('asks for a title and content within the limits', () => {
    expect(postProblems(EMPTY_POST)).toEqual({ title: 'Title is required', content: 'Content is required' });
    expect(postProblems({ ...EMPTY_POST, title: 'x'.repeat(201), content: 'y'.repeat(20_001) })).toEqual({
      title: 'Title can be at most 200 characters',
      content: 'Content can be at most 20000 characters',
    });
    expect(postProblems({ ...EMPTY_POST, title: 'Hi', content: 'There' })).toEqual({});
  });
});

describe('publish time in the datetime-local input', () => {
  it('goes there and back as the same instant', () => {
    const iso = '2026-12-24T18:30:00.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
    expect(toLocalInput(null)).toBe('');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('not a date')).toBeNull();
  });
});

describe('parseAdminPost', () => {
  it('keeps only string media addresses and defaults the rest', () => {
    const post = parseAdminPost({ id: 'p', title: 'T', status: 'odd', media_urls: ['a', 3, null] });
    expect(post).toMatchObject({ status: 'published', mediaUrls: ['a'], bodyHtml: null, featured: false });
  });
});

describe('post filters in the URL', () => {
  it('read what they know, ignore the rest and write back only what differs from the defaults', () => {
    const filters = parsePostFilters(new URLSearchParams('state=scheduled&sort=oldest&page=2'));
    expect(filters).toEqual({ state: 'scheduled', sort: 'oldest', page: 2 });
    expect(postFiltersSearch(filters)).toBe('?state=scheduled&sort=oldest&page=2');
    expect(parsePostFilters(new URLSearchParams('state=live&sort=x&page=0'))).toEqual({
      state: null,
      sort: 'newest',
      page: 1,
    });
    expect(postFiltersSearch({ state: null, sort: 'newest', page: 1 })).toBe('');
  });
});

describe('withImage', () => {
  const url = 'https://example.com/media/admin-posts/a.png';

  it('adds the image on a paragraph of its own after the text', () => {
    expect(withImage('The greenhouse is full.', url)).toBe(`The greenhouse is full.\n\n![](${url})\n`);
  });

  it('needs no blank line in an empty text or after a line already ended', () => {
    expect(withImage('', url)).toBe(`![](${url})\n`);
    expect(withImage('First line\n', url)).toBe(`First line\n![](${url})\n`);
  });
});
