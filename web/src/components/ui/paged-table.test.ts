import { describe, expect, it } from 'vitest';
import {
  listCaption,
  listSearch,
  MAX_PAGE,
  pageCount,
  pageSummary,
  parsePage,
  sortOptions,
} from './paged-table.tsx';

describe('parsePage', () => {
  it('reads a whole page number from the URL', () => {
    expect(parsePage('1')).toBe(1);
    expect(parsePage('7')).toBe(7);
    expect(parsePage(String(MAX_PAGE))).toBe(MAX_PAGE);
  });

  it('takes page 1 when the parameter is missing or not a page', () => {
    expect(parsePage(null)).toBe(1);
    expect(parsePage('')).toBe(1);
    expect(parsePage('0')).toBe(1);
    expect(parsePage('-3')).toBe(1);
    expect(parsePage('abc')).toBe(1);
    expect(parsePage(String(MAX_PAGE + 1))).toBe(1);
  });

  it('reads the leading digits as parseInt does', () => {
    expect(parsePage('2.5')).toBe(2);
    expect(parsePage('3abc')).toBe(3);
  });
});

describe('listSearch', () => {
  it("writes the filters' parameters, then the page", () => {
    expect(listSearch(new URLSearchParams({ status: 'new', sort: 'oldest' }), 2)).toBe(
      '?status=new&sort=oldest&page=2',
    );
  });

  it('leaves page 1 out, and gives no search at all for the default view', () => {
    expect(listSearch(new URLSearchParams({ q: 'morgan lee' }), 1)).toBe('?q=morgan+lee');
    expect(listSearch(new URLSearchParams(), 1)).toBe('');
  });

  it("does not change the caller's parameters", () => {
    const params = new URLSearchParams({ state: 'draft' });
    listSearch(params, 3);
    expect(params.toString()).toBe('state=draft');
  });
});

describe('pageCount', () => {
  it('counts the pages the rows fill, the last one partly', () => {
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
    expect(pageCount(1204, 25)).toBe(49);
  });

  it('has one page for an empty list', () => {
    expect(pageCount(0, 25)).toBe(1);
  });
});

describe('pageSummary', () => {
  const noun = ['member', 'members'] as const;

  it('counts the rows with thousands separators, then says the page', () => {
    expect(pageSummary({ total: 1204, noun, page: 2, pages: 49 })).toBe('1,204 members · page 2 of 49');
  });

  it('names one row in the singular, none and many in the plural', () => {
    expect(pageSummary({ total: 1, noun, page: 1, pages: 1 })).toBe('1 member · page 1 of 1');
    expect(pageSummary({ total: 0, noun, page: 1, pages: 1 })).toBe('0 members · page 1 of 1');
  });

  it('says "about" before an estimated total and its page count', () => {
    expect(pageSummary({ total: 1_000_437, approximate: true, noun, page: 2, pages: 40_018 })).toBe(
      'about 1,000,437 members · page 2 of about 40,018',
    );
  });

  it('adds the page size when asked', () => {
    expect(pageSummary({ total: 30, noun: ['booking', 'bookings'], page: 2, pages: 2, perPage: 25 })).toBe(
      '30 bookings · page 2 of 2 (25 per page)',
    );
  });
});

describe('listCaption', () => {
  it('names the list, its order in lower case, and the page', () => {
    expect(listCaption('Members', 'Newest members', 2, 49)).toBe('Members, newest members, page 2 of 49');
    expect(listCaption('Members', 'Newest members', 2, 40_018, true)).toBe(
      'Members, newest members, page 2 of about 40,018',
    );
  });
});

describe('sortOptions', () => {
  it("offers each sort order by its key, labelled, in the catalogue's order", () => {
    const sorts = {
      newest: { label: 'Newest first', ascending: false },
      oldest: { label: 'Oldest first', ascending: true },
    };
    expect(sortOptions(sorts)).toEqual([
      ['newest', 'Newest first'],
      ['oldest', 'Oldest first'],
    ]);
  });
});
