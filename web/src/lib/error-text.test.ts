import { describe, expect, it } from 'vitest';
import { ERROR_TEXTS, errorMessageOf, errorText, UserFacingError } from './error-text.ts';

describe('errorText: product §messages keyword table', () => {
  it.each([
    ['Request rate limit reached', 'Too many requests. Please wait and try again.'],
    ['new row violates rate limit for bookings', 'Too many requests. Please wait and try again.'],
    ['email rate-limit exceeded', 'Too many requests. Please wait and try again.'],
    ['Auth session missing!', 'Authentication failed. Please sign in and try again.'],
    ['401 Unauthorized', 'Authentication failed. Please sign in and try again.'],
    ['permission denied for table profiles', "You don't have permission to perform this action."],
    ['Forbidden', "You don't have permission to perform this action."],
    ['Failed to fetch', 'Network error. Please check your connection and try again.'],
    [
      'NetworkError when attempting to fetch resource.',
      'Network error. Please check your connection and try again.',
    ],
    ['The file is too big', 'File upload failed. Please check the file and try again.'],
    ['Upload interrupted', 'File upload failed. Please check the file and try again.'],
    ['boom', 'An error occurred. Please try again.'],
    ['', 'An error occurred. Please try again.'],
  ])('%j → %j', (message, text) => {
    expect(errorText(new Error(message))).toBe(text);
  });

  it('applies the keywords in the order of the table', () => {
    // "rate limit" wins over "auth"; "auth" over "network".
    expect(errorText(new Error('auth rate limit'))).toBe(ERROR_TEXTS.rateLimit);
    expect(errorText(new Error('auth network failure'))).toBe(ERROR_TEXTS.auth);
    expect(errorText(new Error('forbidden upload'))).toBe(ERROR_TEXTS.permission);
  });

  it('matches keywords whatever their case', () => {
    expect(errorText(new Error('RATE LIMIT'))).toBe(ERROR_TEXTS.rateLimit);
    expect(errorText(new Error('TypeError: FETCH failed'))).toBe(ERROR_TEXTS.network);
  });

  it('passes validation messages through unchanged', () => {
    const message = 'Too many login attempts. Please wait 1 minutes and try again.';
    expect(errorText(new UserFacingError(message))).toBe(message);
    // Even when they contain a keyword.
    expect(errorText(new UserFacingError('Invalid name: Full name must not contain HTML.'))).toBe(
      'Invalid name: Full name must not contain HTML.',
    );
  });

  it('reads supabase-js error objects, plain objects and strings', () => {
    expect(errorText({ message: 'permission denied', code: '42501' })).toBe(ERROR_TEXTS.permission);
    expect(errorText('Failed to fetch')).toBe(ERROR_TEXTS.network);
    expect(errorText(null)).toBe(ERROR_TEXTS.generic);
    expect(errorText(undefined)).toBe(ERROR_TEXTS.generic);
    expect(errorText(42)).toBe(ERROR_TEXTS.generic);
    expect(errorText({ message: 17 })).toBe(ERROR_TEXTS.generic);
  });

  it("refines 'anything else' by HTTP status with §messages' other messages", () => {
    expect(errorText({ message: 'upstream died', status: 503 })).toBe(
      'A server error occurred. Please try again later.',
    );
    expect(errorText({ message: 'new row violates check constraint', status: 400 })).toBe(
      'Please check your input and try again.',
    );
    expect(errorText({ message: 'conflict', status: 409 })).toBe(ERROR_TEXTS.generic);
    // A keyword still wins over the status.
    expect(errorText({ message: 'rate limit', status: 500 })).toBe(ERROR_TEXTS.rateLimit);
  });

  it('finds keywords where words start, not inside other words', () => {
    expect(errorText(new Error('AuthRetryableFetchError'))).toBe(ERROR_TEXTS.auth);
    expect(errorText(new Error('profiles_username_key'))).toBe(ERROR_TEXTS.generic);
    expect(errorText(new Error('prefetched'))).toBe(ERROR_TEXTS.generic);
  });

  it('never shows internal detail', () => {
    const text = errorText(new Error('duplicate key value violates unique constraint "profiles_pkey"'));
    expect(text).toBe(ERROR_TEXTS.generic);
  });

  it('has the remaining texts of §messages', () => {
    expect(ERROR_TEXTS.correctErrors).toBe('Please correct the errors and try again.');
  });
});

describe('errorMessageOf', () => {
  it('extracts the message of whatever was thrown', () => {
    expect(errorMessageOf(new Error('x'))).toBe('x');
    expect(errorMessageOf({ message: 'y' })).toBe('y');
    expect(errorMessageOf('z')).toBe('z');
    expect(errorMessageOf({})).toBe('');
  });
});
