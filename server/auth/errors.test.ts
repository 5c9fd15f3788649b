import { describe, expect, it } from 'vitest';
import { DatabaseBusyError } from '../db/gate.ts';
import { ApiError } from '../http/errors.ts';
import { authErrors, renderAuthError, requestedApiVersion, toAuthError } from './errors.ts';

const withVersion = (value?: string) => ({
  headers: value === undefined ? {} : { 'x-supabase-api-version': value },
});

describe('API version negotiation (X-Supabase-Api-Version)', () => {
  it.each([
    [undefined, undefined],
    ['2024-01-01', '2024-01-01'],
    ['2025-06-30', '2024-01-01'],
    ['2023-12-31', undefined],
    ['yesterday', undefined],
    ['2024-13-45', undefined],
  ])('%s → %s', (header, version) => {
    expect(requestedApiVersion(withVersion(header))).toBe(version);
  });
});

describe('renderAuthError', () => {
  it('answers {code, message} to clients that ask for 2024-01-01 (what auth-js sends)', () => {
    expect(renderAuthError(authErrors.invalidCredentials(), '2024-01-01')).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
  });

  it('answers {code, error_code, msg} otherwise', () => {
    expect(renderAuthError(authErrors.invalidCredentials(), undefined)).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });

  it('adds weak_password.reasons', () => {
    const error = authErrors.weakPassword('Password should be at least 6 characters.', ['length']);
    expect(renderAuthError(error, undefined)).toEqual({
      code: 422,
      error_code: 'weak_password',
      msg: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
    expect(renderAuthError(error, '2024-01-01')).toMatchObject({ weak_password: { reasons: ['length'] } });
  });
});

describe('toAuthError', () => {
  it('passes our errors through', () => {
    const error = authErrors.userNotFound();
    expect(toAuthError(error)).toBe(error);
  });

  it('says a busy database is busy (503, Retry-After), not an unexpected failure', () => {
    expect(renderAuthError(toAuthError(new DatabaseBusyError(1000)), undefined)).toMatchObject({
      code: 503,
      error_code: 'service_unavailable',
    });
    expect(toAuthError(new DatabaseBusyError(1000)).headers).toEqual({ 'retry-after': '1' });
  });

  it.each([
    [{ code: '23505', constraint: 'users_email_partial_key' }, 422, 'email_exists'],
    [{ code: '23505', constraint: 'identities_provider_id_provider_unique' }, 422, 'identity_already_exists'],
    [{ code: '23505', constraint: 'something_else' }, 409, 'conflict'],
    [{ code: '23503' }, 409, 'conflict'],
    [{ code: '22P05' }, 400, 'validation_failed'],
    [{ code: '22021' }, 400, 'validation_failed'],
    [{ code: '57014' }, 504, 'request_timeout'],
    [{ code: '40001' }, 409, 'conflict'],
  ])('translates PostgreSQL %j', (pgError, status, code) => {
    const error = toAuthError(Object.assign(new Error('db'), pgError));
    expect(error).toMatchObject({ status, code });
  });

  it('turns body-parsing failures into bad_json and oversized bodies into 413', () => {
    expect(
      toAuthError(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 })),
    ).toMatchObject({
      status: 400,
      code: 'bad_json',
    });
    expect(
      toAuthError(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })),
    ).toMatchObject({
      status: 413,
    });
  });

  it('hides unexpected failures behind unexpected_failure', () => {
    const error = toAuthError(new TypeError('secret internals'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, code: 'unexpected_failure' });
    expect(error.message).not.toContain('secret');
  });
});
