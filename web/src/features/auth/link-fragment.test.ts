import { describe, expect, it } from 'vitest';
import { parseLinkFragment } from './link-fragment.ts';

describe('parseLinkFragment', () => {
  it('finds the session a confirmation link created', () => {
    expect(parseLinkFragment('#access_token=abc&expires_in=3600&refresh_token=r&type=signup')).toEqual({
      kind: 'session',
      accessToken: 'abc',
    });
  });

  it('reads the error of a refused link', () => {
    expect(
      parseLinkFragment(
        '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
      ),
    ).toEqual({ kind: 'error', description: 'Email link is invalid or has expired' });
    expect(parseLinkFragment('#error_code=x')).toEqual({
      kind: 'error',
      description: 'The link is invalid or has expired.',
    });
  });

  it('is nothing without a fragment', () => {
    expect(parseLinkFragment('')).toEqual({ kind: 'none' });
    expect(parseLinkFragment('#section')).toEqual({ kind: 'none' });
  });
});
