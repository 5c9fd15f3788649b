import { refusalOf } from './refusals.ts';

/**
 * What the user is told when something fails (product §messages). One module, used by every screen, so the
 * same failure reads the same everywhere and no internal message (SQL, stack, server detail) reaches
 * the page by accident.
 */
export const ERROR_TEXTS = {
  rateLimit: 'Too many requests. Please wait and try again.',
  auth: 'Authentication failed. Please sign in and try again.',
  permission: "You don't have permission to perform this action.",
  network: 'Network error. Please check your connection and try again.',
  file: 'File upload failed. Please check the file and try again.',
  generic: 'An error occurred. Please try again.',
  /** §messages, "anything else": a request the server refused as malformed (400, 422) without a keyword. */
  checkInput: 'Please check your input and try again.',
  /** §messages, "anything else": the server failed (5xx) without a keyword. */
  server: 'A server error occurred. Please try again later.',
  /** §messages, "anything else": a form with several invalid fields. */
  correctErrors: 'Please correct the errors and try again.',
} as const;

/**
 * A message written for the user (a validation rule's text, a rate-limit wait, "Invalid name: …").
 * §messages: validation messages are passed through unchanged.
 */
export class UserFacingError extends Error {
  override name = 'UserFacingError';
}

/**
 * §messages' keyword table, in its order: the first keyword found in the message decides. A keyword counts
 * where a word starts ("Auth session missing", "authentication", "NetworkError", "files"), not inside
 * another word: "profiles" is not about a file.
 */
const KEYWORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\brate.?limit/i, ERROR_TEXTS.rateLimit],
  [/\b(auth|unauthori[sz]ed)/i, ERROR_TEXTS.auth],
  [/\b(permission|forbidden)/i, ERROR_TEXTS.permission],
  [/\b(network|fetch)/i, ERROR_TEXTS.network],
  [/\b(file|upload)/i, ERROR_TEXTS.file],
];

/** The message of anything thrown or returned as an error (Error, supabase-js error objects, strings). */
export function errorMessageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return '';
}

function statusOf(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'status' in error && typeof error.status === 'number') {
    return error.status;
  }
  return undefined;
}

/** The text to show for an error. */
export function errorText(error: unknown): string {
  if (error instanceof UserFacingError) return error.message;
  // A rule of the database the form broke (decision 180): its sentence, not "try again".
  const refusal = refusalOf(error);
  if (refusal) return refusal.message;
  // PostgreSQL's insufficient_privilege: a guard refused the write (a column the server sets, another's row).
  if (error && typeof error === 'object' && 'code' in error && error.code === '42501') {
    return ERROR_TEXTS.permission;
  }
  const message = errorMessageOf(error);
  for (const [keyword, text] of KEYWORDS) {
    if (keyword.test(message)) return text;
  }
  const status = statusOf(error);
  if (status !== undefined && status >= 500) return ERROR_TEXTS.server;
  if (status === 400 || status === 422) return ERROR_TEXTS.checkInput;
  return ERROR_TEXTS.generic;
}
