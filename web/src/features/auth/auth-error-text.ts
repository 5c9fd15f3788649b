import { errorText } from '#web/lib/error-text.ts';

/** Errors in which the auth server answered with a message of its own (supabase-js's AuthApiError family). */
const SERVER_ANSWERS = new Set(['AuthApiError', 'AuthWeakPasswordError']);

/**
 * Product §auth-rules: auth errors show the provider's message. When the server answered, that is its
 * message; our own checks' messages pass unchanged; anything else (the network failed, the client broke)
 * reads as the keyword table says.
 */
export function authErrorText(error: unknown): string {
  if (error instanceof Error && SERVER_ANSWERS.has(error.name) && error.message) return error.message;
  return errorText(error);
}
