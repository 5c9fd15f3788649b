import { describe, expect, it } from 'vitest';
import { parseFilter } from './filters.ts';

describe('parseFilter', () => {
  it('reads every operator realtime-js builds', () => {
    expect(parseFilter('user_id=eq.42')).toEqual({
      ok: true,
      filters: [{ column: 'user_id', op: 'eq', value: '42' }],
    });
    for (const op of ['neq', 'lt', 'lte', 'gt', 'gte']) {
      expect(parseFilter(`n=${op}.1.5`)).toEqual({ ok: true, filters: [{ column: 'n', op, value: '1.5' }] });
    }
    expect(parseFilter('status=in.(open,"on hold","a,b",x\\y)')).toEqual({
      ok: true,
      filters: [{ column: 'status', op: 'in', value: '{open,"on hold","a,b",x\\y}' }],
    });
  });

  it('joins conditions with commas (AND) and unquotes quoted values', () => {
    expect(parseFilter('a=gte.1, b=eq."x, \\"y\\"",c=in.(1,2)')).toEqual({
      ok: true,
      filters: [
        { column: 'a', op: 'gte', value: '1' },
        { column: 'b', op: 'eq', value: 'x, "y"' },
        { column: 'c', op: 'in', value: '{1,2}' },
      ],
    });
  });

  it('treats no filter or a blank one as none', () => {
    expect(parseFilter(undefined)).toEqual({ ok: true, filters: [] });
    expect(parseFilter('   ')).toEqual({ ok: true, filters: [] });
  });

  it.each([
    ['subject=foo.hey', 'Error parsing `filter` params: ["foo","hey"]'],
    ['undefined', 'Error parsing `filter` params: ["undefined"]'],
    [
      'a=eq.1,,b=eq.2',
      'Error parsing `filter` params: filter must not contain empty segments (check for extra commas)',
    ],
    ['a=in.1,2', 'Error parsing `filter` params: `in` filter value must be wrapped by parentheses'],
    ['a=eq', 'Error parsing `filter` params: ["a","eq"]'],
    ['a=like.x%', 'Error parsing `filter` params: ["like","x%"]'],
  ])('refuses %s with Supabase’s message', (filter, message) => {
    expect(parseFilter(filter)).toEqual({ ok: false, message });
  });

  it('refuses filters that are not text or are absurdly long', () => {
    expect(parseFilter(42)).toEqual({
      ok: false,
      message: 'Error parsing `filter` params: expected a string',
    });
    expect(parseFilter(`a=eq.${'x'.repeat(5000)}`)).toMatchObject({ ok: false });
  });
});
