import { describe, expect, it } from 'vitest';
import { UserFacingError } from '#web/lib/error-text.ts';
import { authErrorText } from './auth-error-text.ts';

function named(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

describe('authErrorText', () => {
  it("shows the auth server's own message (product §auth-rules)", () => {
    expect(authErrorText(named('AuthApiError', 'Invalid login credentials'))).toBe(
      'Invalid login credentials',
    );
    expect(authErrorText(named('AuthWeakPasswordError', 'Password should be at least 6 characters.'))).toBe(
      'Password should be at least 6 characters.',
    );
  });

  it('passes our own validation messages through', () => {
    expect(authErrorText(new UserFacingError('Invalid name: Full name is required.'))).toBe(
      'Invalid name: Full name is required.',
    );
  });

  it('reads failures without a server answer through the keyword table', () => {
    expect(authErrorText(named('AuthRetryableFetchError', 'Failed to fetch'))).toBe(
      'Network error. Please check your connection and try again.',
    );
    expect(authErrorText(named('AuthSessionMissingError', 'Auth session missing!'))).toBe(
      'Authentication failed. Please sign in and try again.',
    );
    expect(authErrorText(new Error('boom'))).toBe('An error occurred. Please try again.');
  });
});
