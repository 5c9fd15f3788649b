import { describe, expect, it } from 'vitest';
import { listPage } from './list-page.ts';

describe('listPage', () => {
  const parse = (row: Record<string, unknown>) => String(row.id);

  it('parses the rows and takes the count as the total', () => {
    expect(listPage({ data: [{ id: 1 }, { id: 2 }], error: null, count: 1204 }, parse)).toEqual({
      rows: ['1', '2'],
      total: 1204,
    });
    expect(listPage({ data: null, error: null, count: null }, parse)).toEqual({ rows: [], total: 0 });
  });

  it('answers a page past the end (416, PGRST103) as an empty page', () => {
    const pastTheEnd = { code: 'PGRST103', message: 'Requested range not satisfiable' };
    expect(listPage({ data: null, error: pastTheEnd, count: null }, parse)).toEqual({ rows: [], total: 0 });
  });

  it('throws any other error for the list to show', () => {
    const refused = { code: '42501', message: 'permission denied' };
    expect(() => listPage({ data: null, error: refused, count: null }, parse)).toThrow();
  });
});
