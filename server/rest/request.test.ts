import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.ts';
import { negotiate, parseApiRequest, parseCsv, parsePreferences } from './request.ts';

const input = (query: string, headers: Record<string, string> = {}, method = 'GET', body?: string) =>
  parseApiRequest({ method, route: 'relation', name: 'films', query, headers, body });

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof ApiError ? `${error.status} ${error.code}` : String(error);
  }
  return 'no error';
};

describe('preferences', () => {
  it('reads every preference, several headers joined, and collects the unknown ones', () => {
    expect(
      parsePreferences(
        'return=representation, count=exact,resolution=merge-duplicates, missing=default, handling=strict, timezone=UTC, max-affected=5, tx=rollback, params=single-object, return=bogus',
      ),
    ).toEqual({
      return: 'representation',
      count: 'exact',
      resolution: 'merge-duplicates',
      missing: 'default',
      handling: 'strict',
      timezone: 'UTC',
      maxAffected: 5,
      tx: 'rollback',
      invalid: ['params=single-object', 'return=bogus'],
    });
  });

  it('handling=strict turns unknown preferences into PGRST122', () => {
    expect(codeOf(() => input('', { prefer: 'handling=strict, foo' }))).toBe('400 PGRST122');
    expect(codeOf(() => input('', { prefer: 'foo' }))).toBe('no error');
  });
});

describe('content negotiation', () => {
  it.each([
    [undefined, 'json', false],
    ['*/*', 'json', false],
    ['application/json', 'json', false],
    ['application/vnd.pgrst.object+json', 'object', false],
    ['application/vnd.pgrst.object+json;nulls=stripped', 'object', true],
    ['application/vnd.pgrst.array+json; nulls=stripped', 'json', true],
    ['text/csv', 'csv', false],
    ['application/xml;q=0.9, text/csv;q=0.5', 'csv', false],
    ['text/csv;q=0.1, application/json', 'json', false],
  ])('%s', (accept, kind, stripNulls) => {
    expect(negotiate(accept)).toEqual({ kind, stripNulls });
  });

  it('refuses what it cannot produce with PGRST107', () => {
    expect(codeOf(() => negotiate('application/xml'))).toBe('406 PGRST107');
    expect(codeOf(() => negotiate('application/vnd.pgrst.plan+json'))).toBe('406 PGRST107');
    // With plans off, a plan type is skipped for the next acceptable one, as upstream.
    expect(negotiate('application/vnd.pgrst.plan+json, application/json;q=0.5')).toEqual({
      kind: 'json',
      stripNulls: false,
    });
  });

  it('reads plan media types when plans are enabled, as PostgREST decodes them', () => {
    const plans = { plans: true };
    expect(negotiate('application/vnd.pgrst.plan', plans)).toEqual({
      kind: 'json',
      stripNulls: false,
      plan: { format: 'text', forMime: 'application/json', options: [] },
    });
    expect(
      negotiate('application/vnd.pgrst.plan+json; for="text/csv"; options=buffers|analyze|nonsense;', plans),
    ).toEqual({
      kind: 'csv',
      stripNulls: false,
      plan: { format: 'json', forMime: 'text/csv', options: ['analyze', 'buffers'] },
    });
    expect(codeOf(() => negotiate('application/vnd.pgrst.plan+json; for="application/xml"', plans))).toBe(
      '406 PGRST107',
    );
  });
});

describe('query parameters', () => {
  it('sorts parameters into select, filters, order, paging and logic', () => {
    const request = input(
      'select=id,title&id=gt.1&actors.name=eq.x&order=id.desc&limit=5&offset=2&actors.limit=1&or=(a.eq.1,b.eq.2)&apikey=secret',
    );
    expect(request.selectGiven).toBe(true);
    expect(request.filters.map((f) => [f.path, f.filter.field.name])).toEqual([
      [[], 'id'],
      [['actors'], 'name'],
    ]);
    expect(request.order).toHaveLength(1);
    expect(request.paging.get('')).toEqual({ limit: 5, offset: 2 });
    expect(request.paging.get('actors')).toEqual({ limit: 1 });
    expect(request.logic).toHaveLength(1);
  });

  it('for function GETs, values without an operator are arguments', () => {
    const request = parseApiRequest({
      method: 'GET',
      route: 'rpc',
      name: 'fn',
      query: 'a=1&b=hello&c=eq.2&nums=1&nums=2',
      headers: {},
      body: undefined,
    });
    expect(request.args).toEqual([
      ['a', '1'],
      ['b', 'hello'],
      ['nums', '1'],
      ['nums', '2'],
    ]);
    expect(request.filters.map((f) => f.filter.field.name)).toEqual(['c']);
  });

  it('on tables, a value without an operator is a malformed filter', () => {
    expect(codeOf(() => input('title=Moon'))).toBe('400 PGRST100');
  });

  it('reads the Range header and refuses an inverted one', () => {
    expect(input('', { range: '5-9' }).range).toEqual({ offset: 5, limit: 5 });
    expect(input('', { range: 'items=3-' }).range).toEqual({ offset: 3 });
    expect(input('', { range: 'garbage' }).range).toBeUndefined();
    expect(codeOf(() => input('', { range: '9-5' }))).toBe('416 PGRST103');
  });

  it('checks the profile headers', () => {
    expect(codeOf(() => input('', { 'accept-profile': 'public' }))).toBe('no error');
    expect(codeOf(() => input('', { 'accept-profile': 'storage' }))).toBe('406 PGRST106');
    expect(codeOf(() => input('', { 'content-profile': 'auth' }, 'POST', '{}'))).toBe('406 PGRST106');
  });

  it('chooses the schema as PostgREST getSchema does (Accept-Profile reads, Content-Profile writes)', () => {
    const schemas = ['public', 'api'];
    const parse = (method: string, headers: Record<string, string>, route: 'relation' | 'rpc' = 'relation') =>
      parseApiRequest(
        { method, route, name: 'films', query: '', headers, body: method === 'GET' ? undefined : '{}' },
        { schemas },
      );
    expect(parse('GET', {})).toMatchObject({ schema: 'public', profileNegotiated: true });
    expect(parse('GET', { 'accept-profile': 'api' })).toMatchObject({
      schema: 'api',
      profileNegotiated: true,
    });
    expect(parse('HEAD', { 'accept-profile': 'api' }).schema).toBe('api');
    // a write reads Content-Profile only, a read Accept-Profile only
    expect(parse('POST', { 'accept-profile': 'api' }).schema).toBe('public');
    expect(parse('PATCH', { 'content-profile': 'api' }).schema).toBe('api');
    expect(parse('DELETE', { 'content-profile': 'api' }).schema).toBe('api');
    expect(parse('GET', { 'content-profile': 'api' }).schema).toBe('public');
    expect(parse('POST', { 'content-profile': 'api' }, 'rpc').schema).toBe('api');
    expect(parse('GET', { 'accept-profile': 'api' }, 'rpc').schema).toBe('api');
    // one schema exposed and no header: nothing was negotiated (no Content-Profile in the answer)
    expect(input('')).toMatchObject({ schema: 'public', profileNegotiated: false });
    expect(input('', { 'accept-profile': 'public' })).toMatchObject({ profileNegotiated: true });

    const refused = (() => {
      try {
        parse('GET', { 'accept-profile': 'API' });
      } catch (error) {
        return error;
      }
    })() as ApiError;
    expect(refused).toBeInstanceOf(ApiError);
    expect([refused.status, refused.code, refused.message, refused.hint]).toEqual([
      406,
      'PGRST106',
      'Invalid schema: API',
      'Only the following schemas are exposed: public, api',
    ]);
    expect(codeOf(() => parse('PUT', { 'content-profile': 'private' }))).toBe('406 PGRST106');
    expect(codeOf(() => parse('GET', { 'accept-profile': '' }))).toBe('406 PGRST106');
    expect(codeOf(() => parse('GET', { 'accept-profile': "public'; drop table films; --" }))).toBe(
      '406 PGRST106',
    );
  });

  it('refuses methods the resource does not have', () => {
    expect(codeOf(() => input('', {}, 'PUT'))).toBe('405 PGRST117');
    expect(
      codeOf(() =>
        parseApiRequest({
          method: 'DELETE',
          route: 'rpc',
          name: 'f',
          query: '',
          headers: {},
          body: undefined,
        }),
      ),
    ).toBe('405 PGRST101');
  });
});

describe('bodies', () => {
  it('parses JSON objects and arrays, collecting keys', () => {
    expect(input('columns=a,b', {}, 'POST', '[{"a":1},{"a":2,"b":3}]').payload?.keys).toEqual(['a', 'b']);
    expect(codeOf(() => input('', {}, 'POST', '[{"a":1},{"a":2,"b":3}]'))).toBe('400 PGRST102');
  });

  it('converts CSV, with NULL for null and quoted fields', () => {
    expect(parseCsv('a,b\n1,"x, ""y"""\r\nNULL,\n')).toEqual([
      ['a', 'b'],
      ['1', 'x, "y"'],
      ['NULL', ''],
    ]);
    const payload = input('', { 'content-type': 'text/csv' }, 'POST', 'a,b\n1,NULL').payload;
    expect(payload?.value).toEqual([{ a: '1', b: null }]);
    expect(codeOf(() => input('', { 'content-type': 'text/csv' }, 'POST', 'a,b\n1'))).toBe('400 PGRST102');
  });

  it('refuses what is not a JSON object or array of objects', () => {
    for (const body of ['', 'nope', '1', '"x"', '[1]', 'null']) {
      expect(codeOf(() => input('', {}, 'POST', body))).toBe('400 PGRST102');
    }
  });
});
