import { describe, expect, it } from 'vitest';
import { changedParams, clearedParams, defineUrlFilters, oneOf, pageNumber } from './use-url-filters.ts';

const SORTS = ['name', 'newest'] as const;

/** A directory's filters, as a screen defines them. */
const filters = defineUrlFilters({
  params: { q: 'q', sort: 'sort', verifiedOnly: 'verified', page: 'page' },
  read: (params) => ({
    q: (params.get('q') ?? '').slice(0, 100),
    sort: oneOf(params.get('sort'), SORTS) ?? 'name',
    verifiedOnly: params.get('verified') === '1',
    page: pageNumber(params.get('page'), 50),
  }),
  page: 'page',
  search: 'q',
});

const address = (search: string) => new URLSearchParams(search);

describe('defineUrlFilters', () => {
  it('takes the filters of an address without parameters as the defaults', () => {
    expect(filters.defaults).toEqual({ q: '', sort: 'name', verifiedOnly: false, page: 1 });
  });
});

describe('changedParams', () => {
  it('writes a changed filter under its parameter and starts again at the first page', () => {
    expect(changedParams(filters, address('q=kush&page=3'), { sort: 'newest' }).toString()).toBe(
      'q=kush&sort=newest',
    );
  });

  it('leaves defaults, empty text and unticked boxes out of the address', () => {
    const next = changedParams(filters, address('q=kush&sort=newest&verified=1'), {
      q: '',
      sort: 'name',
      verifiedOnly: false,
    });
    expect(next.toString()).toBe('');
  });

  it('writes a ticked box as 1 and a page number as text, keeping the other filters', () => {
    expect(changedParams(filters, address('q=kush'), { verifiedOnly: true }).toString()).toBe(
      'q=kush&verified=1',
    );
    expect(changedParams(filters, address('q=kush&verified=1'), { page: 2 }).toString()).toBe(
      'q=kush&verified=1&page=2',
    );
  });

  it('takes the page out when it goes back to the first', () => {
    expect(changedParams(filters, address('q=kush&page=2'), { page: 1 }).toString()).toBe('q=kush');
    expect(changedParams(filters, address('q=kush&page=2'), { page: null }).toString()).toBe('q=kush');
  });

  it('keeps parameters the filters do not know, and leaves the given address as it was', () => {
    const current = address('utm_source=mail&page=4');
    expect(changedParams(filters, current, { q: 'haze' }).toString()).toBe('utm_source=mail&q=haze');
    expect(current.toString()).toBe('utm_source=mail&page=4');
  });

  it('keeps the page when the filters count none', () => {
    const unpaged = defineUrlFilters({
      params: { q: 'q', page: 'page' },
      read: (params) => ({ q: params.get('q') ?? '', page: pageNumber(params.get('page'), 9) }),
    });
    expect(changedParams(unpaged, address('page=3'), { q: 'x' }).toString()).toBe('page=3&q=x');
  });
});

describe('clearedParams', () => {
  it('puts every filter back to its default', () => {
    expect(clearedParams(filters, address('q=kush&sort=newest&verified=1&page=2')).toString()).toBe('');
  });

  it('puts back only the filters named, and the page', () => {
    expect(clearedParams(filters, address('q=kush&sort=newest&verified=1&page=2'), ['q']).toString()).toBe(
      'sort=newest&verified=1',
    );
  });
});

describe('pageNumber', () => {
  it('reads a whole page number within the range', () => {
    expect(pageNumber('3', 20)).toBe(3);
    expect(pageNumber('20', 20)).toBe(20);
    expect(pageNumber('2.5', 20)).toBe(2);
  });

  it('reads anything else as the first page', () => {
    expect(pageNumber(null, 20)).toBe(1);
    expect(pageNumber('0', 20)).toBe(1);
    expect(pageNumber('21', 20)).toBe(1);
    expect(pageNumber('-2', 20)).toBe(1);
    expect(pageNumber('next', 20)).toBe(1);
  });
});

describe('oneOf', () => {
  it('accepts only the allowed values', () => {
    expect(oneOf('newest', SORTS)).toBe('newest');
    expect(oneOf('oldest', SORTS)).toBeNull();
    expect(oneOf('', SORTS)).toBeNull();
    expect(oneOf(null, SORTS)).toBeNull();
  });
});
