import { errorMessageOf, errorText, UserFacingError } from './error-text.ts';

/**
 * The product's own SQL functions refuse admin actions with sentences written for people ("Another
 * booking is already confirmed for 2026-12-01 at 10:00.", "Unauthorized"); those are passed through
 * (product §messages: validation messages unchanged). Anything else — PostgreSQL's own wording, network and
 * server failures — goes through errorText's §messages table.
 */
export function serverMessage(error: unknown): string {
  if (error instanceof UserFacingError) return error.message;
  const message = errorMessageOf(error);
  const status =
    error && typeof error === 'object' && 'status' in error && typeof error.status === 'number'
      ? error.status
      : undefined;
  const code =
    error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (message === 'Unauthorized') return message;
  // supabase-js errors carry PostgreSQL's code, not the HTTP status: integrity (23…) and raised (P0…) errors.
  const refused = (status !== undefined && [400, 404, 409, 422].includes(status)) || /^(23|P0)/.test(code);
  const readable =
    refused &&
    /^[A-Z][^\n]{0,300}\.$/.test(message) &&
    !/\b(violates|syntax|relation|column|constraint|function|operator|type)\b/i.test(message);
  return readable ? message : errorText(error);
}

/** Rethrows a supabase-js error so that the screen shows serverMessage's text. */
export function asUserFacing(error: unknown): UserFacingError {
  return new UserFacingError(serverMessage(error));
}
