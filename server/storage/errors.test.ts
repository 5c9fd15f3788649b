import { describe, expect, it } from 'vitest';
import { renderers } from '../http/errors.ts';
import { authFailureError, fromDatabaseError, StorageErrors } from './errors.ts';

describe('the storage error catalogue', () => {
  it('renders Supabase’s wire shape', () => {
    expect(renderers.storage(StorageErrors.noSuchKey())).toEqual({
      statusCode: '404',
      error: 'not_found',
      message: 'Object not found',
    });
    expect(renderers.storage(StorageErrors.entityTooLarge())).toEqual({
      statusCode: '413',
      error: 'Payload too large',
      message: 'The object exceeded the maximum allowed size',
    });
    expect(renderers.storage(StorageErrors.invalidMimeType('text/html'))).toEqual({
      statusCode: '415',
      error: 'invalid_mime_type',
      message: 'mime type text/html is not supported',
    });
  });

  it('never echoes control characters or endless names', () => {
    expect(StorageErrors.invalidKey('a\u0000b\u001b').message).toBe('Invalid key: a\uFFFDb\uFFFD');
    expect(StorageErrors.invalidKey('x'.repeat(5000)).message.length).toBeLessThan(400);
  });

  it('translates PostgreSQL errors in one place', () => {
    expect(
      fromDatabaseError({
        code: '42501',
        message: 'new row violates row-level security policy for table "objects"',
      }),
    ).toMatchObject({
      status: 403,
      code: 'Unauthorized',
      message: 'new row violates row-level security policy',
    });
    expect(fromDatabaseError({ code: '23505', constraint: 'bucketid_objname' })).toMatchObject({
      status: 409,
      code: 'Duplicate',
    });
    expect(fromDatabaseError({ code: '23505', constraint: 'buckets_pkey' })).toMatchObject({ status: 409 });
    expect(
      fromDatabaseError({
        code: '23503',
        message: 'update or delete on table "buckets" violates foreign key constraint',
      }),
    ).toMatchObject({ status: 409, message: 'The bucket you tried to delete is not empty' });
    expect(
      fromDatabaseError({ code: '23503', message: 'insert or update on table "objects" violates' }),
    ).toMatchObject({
      status: 404,
      message: 'Bucket not found',
    });
    expect(fromDatabaseError({ code: '23514', constraint: 'buckets_id_format' })).toMatchObject({
      status: 400,
    });
    expect(fromDatabaseError({ code: '57014' })).toMatchObject({ status: 503 });
    expect(fromDatabaseError({ code: 'XX000' })).toBeUndefined();
    expect(fromDatabaseError(new Error('plain'))).toBeUndefined();
  });

  it('maps authentication failures as Supabase’s gateway and storage do', () => {
    expect(authFailureError({ kind: 'missing_apikey', message: '' })).toMatchObject({ status: 401 });
    expect(authFailureError({ kind: 'invalid_apikey', message: '' })).toMatchObject({ status: 401 });
    expect(authFailureError({ kind: 'jwt_expired', message: '' })).toMatchObject({
      status: 403,
      message: 'jwt expired',
    });
    expect(authFailureError({ kind: 'jwt_invalid', message: '' })).toMatchObject({ status: 403 });
    expect(
      authFailureError({ kind: 'unknown_role', message: 'role "x" does not exist', role: 'x' }),
    ).toMatchObject({
      status: 403,
    });
  });
});
