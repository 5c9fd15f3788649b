import { describe, expect, it } from 'vitest';
import { COUNTED_EXACTLY, listPage } from './list-page.ts';

describe('listPage', () => {
  const parse = (row: Record<string, unknown>) => String(row.id);

  it('parses the rows and takes the count as the total, exact up to 1,000 (decision 252)', () => {
    expect(COUNTED_EXACTLY).toBe(1000);
    expect(listPage({ data: [{ id: 1 }, { id: 2 }], error: null, count: 1000 }, parse)).toEqual({
      rows: ['1', '2'],
      total: 1000,
      approximate: false,
    });
    expect(listPage({ data: null, error: null, count: null }, parse)).toEqual({
      rows: [],
      total: 0,
      approximate: false,
    });
  });

  it('takes a larger total for an estimate', () => {
    expect(listPage({ data: [{ id: 1 }], error: null, count: 1001 }, parse)).toEqual({
      rows: ['1'],
      total: 1001,
      approximate: true,
    });
  });

  it('answers a page past the end (416, PGRST103) as an empty page', () => {
    const pastTheEnd = { code: 'PGRST103', message: 'Requested range not satisfiable' };
    expect(listPage({ data: null, error: pastTheEnd, count: null }, parse)).toEqual({
      rows: [],
      total: 0,
      approximate: false,
    });
  });

  it('throws any other error for the list to show', () => {
    const refused = { code: '42501', message: 'permission denied' };
    expect(() => listPage({ data: null, error: refused, count: null }, parse)).toThrow();
  });
});
