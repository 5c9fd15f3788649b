import { DatabaseBusyError } from '../db/gate.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthFailure } from '../http/request-auth.ts';
import { hasControlCharacters } from './text.ts';

/**
 * Every error the file service answers with, as Supabase Storage spells it (its
 * `internal/errors/codes.ts`): the wire body is `{statusCode, error, message}`, where `error` is the
 * name Supabase sends (`not_found`, `Duplicate`, `Payload too large`, ...). Unlike Supabase, which
 * answers HTTP 400 for most of them and puts the real status only in `statusCode`, the HTTP status
 * here is that same status (decision 047); storage-js reads both.
 */
export const StorageErrors = {
  noSuchBucket: () => new ApiError(404, 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new ApiError(404, 'not_found', 'Object not found'),
  bucketAlreadyExists: () => new ApiError(409, 'Duplicate', 'The resource already exists'),
  keyAlreadyExists: () => new ApiError(409, 'Duplicate', 'The resource already exists'),
  bucketNotEmpty: () => new ApiError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  invalidBucketName: () => new ApiError(400, 'Invalid Input', 'Bucket name invalid'),
  invalidKey: (key: string) => new ApiError(400, 'InvalidKey', `Invalid key: ${printable(key)}`),
  /** Object-name rules of product §image-rules, with its messages. */
  invalidFileName: (message: FileNameProblem) => new ApiError(400, 'InvalidKey', message),
  entityTooLarge: (entity = 'object') =>
    new ApiError(413, 'Payload too large', `The ${entity} exceeded the maximum allowed size`),
  invalidMimeType: (mimeType: string) =>
    new ApiError(415, 'invalid_mime_type', `mime type ${printable(mimeType)} is not supported`),
  contentMismatch: () => new ApiError(415, 'invalid_mime_type', 'File content does not match declared type.'),
  embeddedContent: () =>
    new ApiError(
      415,
      'invalid_mime_type',
      'File content does not match declared type. The image carries script, markup or archive content.',
    ),
  invalidFileSizeLimit: () =>
    new ApiError(400, 'InvalidRequest', 'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B'),
  invalidRequest: (message: string) => new ApiError(400, 'InvalidRequest', message),
  noContentProvided: () => new ApiError(400, 'InvalidRequest', 'No content provided'),
  accessDenied: (message = 'Access denied') => new ApiError(403, 'Unauthorized', message),
  accountGone: () => new ApiError(403, 'Unauthorized', 'The account of this token no longer exists'),
  /** The product's write quotas (decision 094): the database's message, with its wait. */
  slowDown: (message: string, retryAfter: string | undefined) =>
    new ApiError(429, 'SlowDown', message, { headers: retryAfter ? { 'retry-after': retryAfter } : {} }),
  rowLevelSecurity: (cause?: unknown) =>
    new ApiError(403, 'Unauthorized', 'new row violates row-level security policy', { cause }),
  missingApiKey: () => new ApiError(401, 'Unauthorized', 'No API key found in request'),
  invalidApiKey: () => new ApiError(401, 'Unauthorized', 'Invalid API key'),
  invalidJwt: (message: string) => new ApiError(400, 'InvalidJWT', message),
  invalidSignature: () => new ApiError(400, 'InvalidSignature', 'The url do not match the signature'),
  /**
   * A signed upload URL used a second time: upstream (which does not consume its tokens) answers the
   * second upload of the same path with its Duplicate error, so this says the same (decision 229).
   */
  uploadTokenUsed: () => new ApiError(409, 'Duplicate', 'The resource already exists'),
  /** Image transformations (decision 228), with upstream's messages for the same refusals. */
  imageUnsupported: () =>
    new ApiError(400, 'InvalidRequest', 'The source image is invalid or unsupported for rendering'),
  imageResolutionTooLarge: () =>
    new ApiError(400, 'InvalidRequest', 'The source image resolution is too large to process'),
  imageFileTooLarge: () =>
    new ApiError(400, 'InvalidRequest', 'The source image file is too large to process'),
  renderBusy: () =>
    new ApiError(429, 'InvalidRequest', 'Too many requests', { headers: { 'retry-after': '1' } }),
  renderTimeout: () => new ApiError(408, 'InvalidRequest', 'Image request timed out'),
  invalidRange: (size: number) =>
    new ApiError(416, 'InvalidRange', 'invalid range provided', {
      headers: { 'content-range': `bytes */${size}` },
    }),
  databaseTimeout: (cause?: unknown) =>
    new ApiError(503, 'DatabaseTimeout', 'The connection to the database timed out', {
      cause,
      headers: { 'retry-after': '1' },
    }),
  internal: (cause?: unknown) => new ApiError(500, 'InternalError', 'Internal server error', { cause }),
} as const;

export type FileNameProblem =
  | 'Invalid filename characters detected.'
  | 'Filename too long.'
  | 'Suspicious file extension detected.'
  | 'Double file extensions are not allowed.';

/** Control characters never go back to the client verbatim, not even JSON-escaped. */
function printable(value: string): string {
  const clean = [...value]
    .map((character) => (hasControlCharacters(character) ? '\uFFFD' : character))
    .join('');
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
}

/** The caller could not be established: how Supabase's gateway and storage answer each case. */
export function authFailureError(failure: AuthFailure): ApiError {
  switch (failure.kind) {
    case 'missing_apikey':
      return StorageErrors.missingApiKey();
    case 'invalid_apikey':
      return StorageErrors.invalidApiKey();
    case 'jwt_expired':
      return StorageErrors.accessDenied('jwt expired');
    case 'jwt_invalid':
      return StorageErrors.accessDenied('invalid signature');
    case 'unknown_role':
      return StorageErrors.accessDenied(failure.message);
  }
}

interface PgError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

/**
 * PostgreSQL errors in one place (Supabase's `DBError.fromDBError`): row-level security → 403,
 * duplicates → 409, a bucket that does not exist or still holds objects → 404/409, a name the
 * schema's checks refuse → 400, timeouts → 503. Anything else is not translated (it becomes a 500).
 */
export function fromDatabaseError(error: unknown): ApiError | undefined {
  // No connection came free in time: Supabase Storage's answer when its pool times out.
  if (error instanceof DatabaseBusyError) return StorageErrors.databaseTimeout(error);
  if (error instanceof ApiError || typeof error !== 'object' || error === null) return undefined;
  const { code, constraint } = error as PgError;
  if (typeof code !== 'string') return undefined;
  switch (code) {
    case '42501':
      return StorageErrors.rowLevelSecurity(error);
    case '23505':
      return constraint === 'buckets_pkey' || constraint === 'bname'
        ? StorageErrors.bucketAlreadyExists()
        : StorageErrors.keyAlreadyExists();
    case '23503': {
      // objects.bucket_id → buckets.id: inserting into a missing bucket, or deleting a full one.
      const message = String((error as PgError).message ?? '');
      return message.includes('update or delete on table "buckets"')
        ? StorageErrors.bucketNotEmpty()
        : StorageErrors.noSuchBucket();
    }
    case '23514':
      if (constraint === 'buckets_id_format') return StorageErrors.invalidBucketName();
      if (constraint === 'buckets_file_size_limit_positive') return StorageErrors.invalidFileSizeLimit();
      return StorageErrors.invalidRequest('The request violates a rule of the storage schema');
    case '22P02':
    case '22023':
      return StorageErrors.invalidRequest('Invalid value in the request');
    case '57014':
      return StorageErrors.databaseTimeout(error);
    case 'PGRST':
      return quotaRefusal(error as PgError & { detail?: unknown });
    default:
      return undefined;
  }
}

/** `RAISE SQLSTATE 'PGRST'` with a 429 in its detail: a write quota refused the upload. */
function quotaRefusal(error: PgError & { detail?: unknown }): ApiError | undefined {
  try {
    const body = JSON.parse(String(error.message)) as { message?: unknown };
    const meta = JSON.parse(String(error.detail)) as { status?: unknown; headers?: Record<string, unknown> };
    if (meta.status !== 429 || typeof body.message !== 'string') return undefined;
    const retryAfter = meta.headers?.['Retry-After'];
    return StorageErrors.slowDown(body.message, typeof retryAfter === 'string' ? retryAfter : undefined);
  } catch {
    return undefined;
  }
}
