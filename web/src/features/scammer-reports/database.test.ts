import { describe, expect, it } from 'vitest';
import { attribution, filtersOf, formatAmount, hasFilters, searchArgs, updatedLine } from './database.ts';

describe('filtersOf', () => {
  it('reads the search from the address and ignores malformed bounds', () => {
    const filters = filtersOf(
      new URLSearchParams(
        'q=+Green+Valley+&location=Denver&min=100&max=abc&from=2026-01-01&to=yesterday&sort=amount',
      ),
    );
    expect(filters).toEqual({
      q: 'Green Valley',
      location: 'Denver',
      amountMin: '100',
      amountMax: '',
      from: '2026-01-01',
      to: '',
      sort: 'amount',
      brand: '',
    });
    expect(hasFilters(filters)).toBe(true);
    expect(filtersOf(new URLSearchParams('sort=drop')).sort).toBe('newest');
    expect(hasFilters(filtersOf(new URLSearchParams('sort=amount')))).toBe(false);
  });

  it('turns into the search function’s arguments', () => {
    expect(searchArgs(filtersOf(new URLSearchParams('q=kush&min=5.50')), 21)).toEqual({
      query: 'kush',
      location: null,
      amount_min: 5.5,
      amount_max: null,
      incident_from: null,
      incident_to: null,
      sort: 'newest',
      result_limit: 21,
      result_offset: 0,
      brand: null,
    });
  });

  it('keeps a brand id (a brand page’s "Read the reports") and drops anything else', () => {
    const id = '0b6f3a52-9c1e-4d7a-8f2b-1a2b3c4d5e6f';
    const filters = filtersOf(new URLSearchParams(`brand=${id.toUpperCase()}`));
    expect(filters.brand).toBe(id);
    expect(hasFilters(filters)).toBe(true);
    expect(searchArgs(filters, 21).brand).toBe(id);
    expect(filtersOf(new URLSearchParams('brand=Green+Thumb')).brand).toBe('');
  });
});

describe('how a published report is worded', () => {
  it('is a member’s report, with when it was reported and reviewed', () => {
    expect(attribution('2026-11-02T15:00:00Z', '2026-11-04T09:30:00Z')).toBe(
      'Reported by a member on November 2, 2026, reviewed on November 4, 2026.',
    );
    expect(attribution('2026-11-02T15:00:00Z', null)).toBe('Reported by a member on November 2, 2026.');
  });

  it('says when a published report last changed and every kind of change (decision 201)', () => {
    expect(updatedLine([])).toBeNull();
    expect(
      updatedLine([
        { kind: 'evidence', changed_at: '2026-11-06T10:00:00Z' },
        { kind: 'summary', changed_at: '2026-11-09T10:00:00Z' },
        { kind: 'evidence', changed_at: '2026-11-07T10:00:00Z' },
      ]),
    ).toBe('Updated November 9, 2026: summary, evidence.');
  });

  it('formats amounts as dollars, and nothing for none', () => {
    expect(formatAmount('1250.5')).toBe('$1,250.50');
    expect(formatAmount(null)).toBeNull();
  });
});
