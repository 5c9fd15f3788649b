import { describe, expect, it } from 'vitest';
import { fromDatabaseError, statusForSqlState } from './errors.ts';

describe('SQLSTATE → HTTP status, as PostgREST maps it', () => {
  it.each([
    ['23505', 409],
    ['23503', 409],
    ['23502', 400],
    ['23514', 400],
    ['22P02', 400],
    ['22003', 400],
    ['25006', 405],
    ['42883', 404],
    ['42P01', 404],
    ['42P17', 500],
    ['P0001', 400],
    ['P0002', 500],
    ['PT402', 402],
    ['08006', 503],
    ['53300', 503],
    ['53400', 500],
    ['57014', 500],
    ['57P01', 503],
    ['28000', 403],
    ['XX000', 500],
    ['42703', 400],
  ])('%s → %i', (code, status) => {
    expect(statusForSqlState(code, 'message', false)).toBe(status);
  });

  it('42501 is 401 for anon and 403 for anyone else', () => {
    expect(statusForSqlState('42501', 'permission denied', true)).toBe(401);
    expect(statusForSqlState('42501', 'permission denied', false)).toBe(403);
  });

  it('21000 is the client’s fault only for what the client caused', () => {
    expect(
      statusForSqlState('21000', 'ON CONFLICT DO UPDATE command cannot affect row a second time', false),
    ).toBe(400);
    expect(
      statusForSqlState('21000', 'more than one row returned by a subquery used as an expression', false),
    ).toBe(500);
  });
});

describe('fromDatabaseError', () => {
  it('passes code, message, detail and hint; adds WWW-Authenticate to a 401', () => {
    const error = fromDatabaseError(
      { code: '42501', message: 'permission denied for table x', detail: '', hint: 'h' },
      true,
    );
    expect(error).toMatchObject({
      status: 401,
      code: '42501',
      message: 'permission denied for table x',
      details: null,
      hint: 'h',
    });
    expect(error.headers).toEqual({ 'www-authenticate': 'Bearer' });
  });

  it('lets RAISE SQLSTATE PGRST choose status, body and headers', () => {
    const error = fromDatabaseError(
      {
        code: 'PGRST',
        message: '{"code":"X1","message":"Nope","details":"d","hint":"h"}',
        detail: '{"status":418,"headers":{"X-A":"b"}}',
      },
      false,
    );
    expect(error).toMatchObject({ status: 418, code: 'X1', message: 'Nope', details: 'd', hint: 'h' });
    expect(error.headers).toEqual({ 'x-a': 'b' });
    expect(fromDatabaseError({ code: 'PGRST', message: 'not json' }, false)).toMatchObject({
      status: 500,
      code: 'PGRST121',
    });
  });

  it('hides anything that is not a database error behind an opaque 500', () => {
    const error = fromDatabaseError(new Error('secret internals'), false);
    expect(error).toMatchObject({ status: 500, message: 'An unexpected error occurred' });
  });
});
