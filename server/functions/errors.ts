import type { FastifyError } from 'fastify';
import { ApiError } from '../http/errors.ts';
import type { AuthFailure } from '../http/request-auth.ts';

/**
 * The server functions' error catalogue. The wire format is `{error, message}` (renderers.plain);
 * messages are written for people, since the web app may show them (product §data-rights shows the deletion's
 * message in a toast and maps "rate limit" / "auth" keywords to its own texts).
 */

const BEARER = { 'www-authenticate': 'Bearer realm="functions"' };
const INVALID_TOKEN = { 'www-authenticate': 'Bearer realm="functions", error="invalid_token"' };

export const FunctionErrors = {
  missingAuthorization: () =>
    new ApiError(
      401,
      'unauthorized',
      'Authorization required: send your access token as "Authorization: Bearer <token>"',
      { headers: BEARER },
    ),
  invalidApiKey: () => new ApiError(401, 'invalid_api_key', 'Invalid API key', { headers: BEARER }),
  expiredToken: () =>
    new ApiError(401, 'jwt_expired', 'Your session has expired: sign in again', { headers: INVALID_TOKEN }),
  invalidToken: () =>
    new ApiError(401, 'invalid_jwt', 'Invalid access token: sign in again', { headers: INVALID_TOKEN }),
  userTokenRequired: () =>
    new ApiError(
      401,
      'user_token_required',
      "This function acts for a signed-in user: send that user's access token, not an API key",
      { headers: INVALID_TOKEN },
    ),
  accountNotFound: () =>
    new ApiError(401, 'user_not_found', 'The account this access token belongs to no longer exists', {
      headers: INVALID_TOKEN,
    }),
  sessionEnded: () =>
    new ApiError(401, 'session_not_found', 'This session has ended: sign in again', {
      headers: INVALID_TOKEN,
    }),

  operatorRequired: () =>
    new ApiError(
      401,
      'operator_required',
      "This function is for administrators: send an admin's access token or the service key",
      { headers: INVALID_TOKEN },
    ),
  adminRequired: () => new ApiError(403, 'admin_required', 'Only administrators may do this'),
  invalidSourceId: () =>
    new ApiError(400, 'invalid_source_id', 'source_id must be a news source id (a UUID)'),
  sourceNotFound: () => new ApiError(404, 'source_not_found', 'There is no news source with this id'),
  invalidFeedUrl: (reason: string) => new ApiError(400, 'invalid_feed_url', `feed_url: ${reason}`),

  methodNotAllowed: (method: string, allowed: string) =>
    new ApiError(405, 'method_not_allowed', `${method} is not allowed here: use ${allowed}`, {
      headers: { allow: `${allowed}, OPTIONS` },
    }),
  invalidJson: () => new ApiError(400, 'invalid_json', 'The request body is not valid JSON'),
  bodyNotObject: () => new ApiError(400, 'invalid_body', 'The request body must be a JSON object'),
  confirmationRequired: () =>
    new ApiError(
      400,
      'confirmation_required',
      'To delete your account and all of your data, send {"confirm_deletion": true} as the JSON body',
    ),
  unsupportedMediaType: () =>
    new ApiError(415, 'unsupported_media_type', 'Send the request body as application/json'),
  bodyTooLarge: () => new ApiError(413, 'payload_too_large', 'The request body is too large'),

  exportRateLimited: (perHour: number, retryAfterSeconds: number) =>
    new ApiError(
      429,
      'rate_limit_exceeded',
      `Data export rate limit reached: at most ${perHour} per hour. Please wait ${Math.ceil(retryAfterSeconds / 60)} minutes and try again.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } },
    ),
  deletionFailed: (cause: unknown) =>
    new ApiError(
      500,
      'deletion_failed',
      'Your account could not be deleted right now, and nothing was removed. Please try again later.',
      { cause },
    ),
  exportFailed: (cause: unknown) =>
    new ApiError(500, 'export_failed', 'Your data could not be exported right now. Please try again later.', {
      cause,
    }),
};

/** The platform's authentication failures in this service's words (always 401, as Supabase's gateway). */
export function authFailureError(failure: AuthFailure): ApiError {
  switch (failure.kind) {
    case 'missing_apikey':
      return FunctionErrors.missingAuthorization();
    case 'invalid_apikey':
      return FunctionErrors.invalidApiKey();
    case 'jwt_expired':
      return FunctionErrors.expiredToken();
    case 'jwt_invalid':
      return FunctionErrors.invalidToken();
    case 'unknown_role':
      return FunctionErrors.userTokenRequired();
  }
}

/** Errors Fastify raises while reading a request, in this catalogue's words. */
export function mapError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const code = (error as Partial<FastifyError>).code;
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return FunctionErrors.unsupportedMediaType();
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return FunctionErrors.bodyTooLarge();
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return FunctionErrors.invalidJson();
  }
  if (error instanceof SyntaxError) return FunctionErrors.invalidJson();
  return undefined;
}
