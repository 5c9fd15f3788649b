import { describe, expect, it } from 'vitest';
import { ApiError, renderers } from '../http/errors.ts';
import { publicUrl } from '../product/gdpr/gdpr-export.ts';
import { authFailureError, FunctionErrors, mapError } from './errors.ts';

describe('the functions error catalogue', () => {
  it('answers every authentication failure with 401 and a Bearer challenge', () => {
    for (const kind of ['missing_apikey', 'invalid_apikey', 'jwt_expired', 'jwt_invalid'] as const) {
      const error = authFailureError({ kind, message: 'x' });
      expect(error.status).toBe(401);
      expect(error.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    expect(authFailureError({ kind: 'unknown_role', message: 'x', role: 'postgres' }).code).toBe(
      'user_token_required',
    );
  });

  it('renders {error, message} and nothing internal', () => {
    const error = FunctionErrors.deletionFailed(new Error('relation "secret_table" does not exist'));
    expect(renderers.plain(error)).toEqual({
      error: 'deletion_failed',
      message:
        'Your account could not be deleted right now, and nothing was removed. Please try again later.',
    });
  });

  it('maps the errors Fastify raises while reading a body', () => {
    const fastify = (code: string) => Object.assign(new Error(code), { code });
    expect(mapError(fastify('FST_ERR_CTP_INVALID_MEDIA_TYPE'))?.status).toBe(415);
    expect(mapError(fastify('FST_ERR_CTP_BODY_TOO_LARGE'))?.status).toBe(413);
    expect(mapError(fastify('FST_ERR_CTP_INVALID_JSON_BODY'))?.code).toBe('invalid_json');
    expect(mapError(new SyntaxError('Unexpected token'))?.code).toBe('invalid_json');
    expect(mapError(new Error('database down'))).toBeUndefined();
    const own = new ApiError(418, 'teapot', 'short and stout');
    expect(mapError(own)).toBe(own);
  });

  it('tells how long to wait when exports are rate limited, in the words the web app maps', () => {
    const error = FunctionErrors.exportRateLimited(5, 1800);
    expect(error.status).toBe(429);
    expect(error.headers['retry-after']).toBe('1800');
    expect(error.message).toContain('rate limit');
    expect(error.message).toContain('30 minutes');
  });
});

describe('public file URLs', () => {
  it('are built as storage-js getPublicUrl builds them', () => {
    expect(publicUrl('https://example.com', 'user-uploads', 'a b/avatar-1.png')).toBe(
      'https://example.com/storage/v1/object/public/user-uploads/a%20b/avatar-1.png',
    );
  });
});
