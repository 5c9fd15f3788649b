import { describe, expect, it } from 'vitest';
import { UserFacingError } from '#web/lib/error-text.ts';
import { AUTH_RATE_LIMITS, parseRateLimitAnswer, rateLimitMessage, rateLimitRefusal } from './rate-limits.ts';

describe('auth rate limits (product §auth-rules)', () => {
  it('allows 3 sign-ups, 5 sign-ins, 3 social logins and 2 resets per 60 minutes', () => {
    expect(AUTH_RATE_LIMITS.auth_signup).toMatchObject({ maxAttempts: 3, windowMinutes: 60 });
    expect(AUTH_RATE_LIMITS.auth_signin).toMatchObject({ maxAttempts: 5, windowMinutes: 60 });
    expect(AUTH_RATE_LIMITS.auth_oauth).toMatchObject({ maxAttempts: 3, windowMinutes: 60 });
    expect(AUTH_RATE_LIMITS.auth_reset).toMatchObject({ maxAttempts: 2, windowMinutes: 60 });
  });

  it.each([
    ['auth_signup', 60, 'Too many signup attempts. Please wait 1 minutes and try again.'],
    ['auth_signin', 60, 'Too many login attempts. Please wait 1 minutes and try again.'],
    ['auth_signin', 61, 'Too many login attempts. Please wait 2 minutes and try again.'],
    ['auth_signin', 120, 'Too many login attempts. Please wait 2 minutes and try again.'],
    ['auth_signin', 1, 'Too many login attempts. Please wait 1 minutes and try again.'],
    ['auth_oauth', 3600, 'Too many social login attempts. Please wait 60 minutes and try again.'],
    ['auth_reset', 300, 'Too many password reset attempts. Please wait 5 minutes and try again.'],
  ] as const)('%s after %i s reads %j', (action, delay, message) => {
    expect(rateLimitMessage(action, delay)).toBe(message);
  });

  it('uses the default wait when the server gives none: 60 s, 300 s for resets', () => {
    expect(rateLimitMessage('auth_signin')).toBe(
      'Too many login attempts. Please wait 1 minutes and try again.',
    );
    expect(rateLimitMessage('auth_signin', 0)).toContain('wait 1 minutes');
    expect(rateLimitMessage('auth_reset')).toBe(
      'Too many password reset attempts. Please wait 5 minutes and try again.',
    );
  });

  it('refuses only on a well-formed "not allowed" answer; anything else lets the action proceed', () => {
    const refusal = rateLimitRefusal('auth_signin', { allowed: false, delay_seconds: 60 });
    expect(refusal).toBeInstanceOf(UserFacingError);
    expect(refusal?.message).toBe('Too many login attempts. Please wait 1 minutes and try again.');
    expect(rateLimitRefusal('auth_signin', { allowed: true, delay_seconds: 0 })).toBeNull();
    expect(rateLimitRefusal('auth_signin', null)).toBeNull();
    expect(rateLimitRefusal('auth_signin', { allowed: 'no' })).toBeNull();
    expect(rateLimitRefusal('auth_signin', 'false')).toBeNull();
  });

  it('reads the answer defensively', () => {
    expect(parseRateLimitAnswer({ allowed: false, delay_seconds: 'soon' })).toEqual({
      allowed: false,
      delaySeconds: undefined,
    });
    expect(parseRateLimitAnswer({ allowed: false })).toEqual({ allowed: false, delaySeconds: undefined });
  });
});
