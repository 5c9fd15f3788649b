import { UserFacingError } from '#web/lib/error-text.ts';

/** The auth actions the server counts (product §rpc progressive_rate_limit_check, §auth-rules limits). */
export type AuthAction = 'auth_signup' | 'auth_signin' | 'auth_oauth' | 'auth_reset';

interface AuthRateLimit {
  maxAttempts: number;
  windowMinutes: number;
  /** "Too many {what} attempts." */
  what: string;
  /** The wait assumed when the server gives none (product §auth-rules). */
  defaultDelaySeconds: number;
}

export const AUTH_RATE_LIMITS: Record<AuthAction, AuthRateLimit> = {
  auth_signup: { maxAttempts: 3, windowMinutes: 60, what: 'signup', defaultDelaySeconds: 60 },
  auth_signin: { maxAttempts: 5, windowMinutes: 60, what: 'login', defaultDelaySeconds: 60 },
  auth_oauth: { maxAttempts: 3, windowMinutes: 60, what: 'social login', defaultDelaySeconds: 60 },
  auth_reset: { maxAttempts: 2, windowMinutes: 60, what: 'password reset', defaultDelaySeconds: 300 },
};

/** "Too many login attempts. Please wait N minutes and try again.", N = delay / 60 rounded up. */
export function rateLimitMessage(action: AuthAction, delaySeconds?: number): string {
  const limit = AUTH_RATE_LIMITS[action];
  const seconds = delaySeconds && delaySeconds > 0 ? delaySeconds : limit.defaultDelaySeconds;
  return `Too many ${limit.what} attempts. Please wait ${Math.ceil(seconds / 60)} minutes and try again.`;
}

export interface RateLimitAnswer {
  allowed: boolean;
  delaySeconds: number | undefined;
}

/** Reads the procedure's answer; null when it is not the expected shape (treated as a failed check). */
export function parseRateLimitAnswer(data: unknown): RateLimitAnswer | null {
  if (!data || typeof data !== 'object' || !('allowed' in data) || typeof data.allowed !== 'boolean') {
    return null;
  }
  const delay = 'delay_seconds' in data ? data.delay_seconds : undefined;
  return {
    allowed: data.allowed,
    delaySeconds: typeof delay === 'number' && Number.isFinite(delay) ? delay : undefined,
  };
}

/** The error to throw when the server refuses the attempt, or null to go ahead (product §auth-rules). */
export function rateLimitRefusal(action: AuthAction, data: unknown): UserFacingError | null {
  const answer = parseRateLimitAnswer(data);
  if (!answer || answer.allowed) return null;
  return new UserFacingError(rateLimitMessage(action, answer.delaySeconds));
}
