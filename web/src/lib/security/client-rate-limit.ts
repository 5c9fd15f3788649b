/**
 * The browser's own rate limit (product §client-rate-limit): a list of
 * attempt timestamps in localStorage under a key per action, by default 5 attempts per 60 s. It only
 * spares the server and gives quick feedback; the server enforces its own limits regardless
 * (global_rate_limit_check, the insert triggers).
 */
export const CLIENT_RATE_LIMIT_DEFAULTS = { maxAttempts: 5, windowMs: 60_000 } as const;

export type RateLimitStorage = Pick<Storage, 'getItem' | 'setItem'>;

export interface ClientRateLimitOptions {
  maxAttempts?: number;
  windowMs?: number;
  now?: number;
  storage?: RateLimitStorage | null;
}

/** The localStorage key of an action's log. */
export function rateLimitKey(action: string): string {
  return `rate_limit_${action}`;
}

function browserStorage(): RateLimitStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function readLog(storage: RateLimitStorage, key: string): number[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(key) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((value): value is number => Number.isFinite(value)) : [];
  } catch {
    return [];
  }
}

/**
 * Whether one more attempt of `action` is allowed now; an allowed attempt is recorded. Attempts older
 * than the window are dropped from the log. Without storage the check allows (the server decides).
 */
export function checkClientRateLimit(action: string, options: ClientRateLimitOptions = {}): boolean {
  const {
    maxAttempts = CLIENT_RATE_LIMIT_DEFAULTS.maxAttempts,
    windowMs = CLIENT_RATE_LIMIT_DEFAULTS.windowMs,
    now = Date.now(),
    storage = browserStorage(),
  } = options;
  if (!storage) return true;
  const key = rateLimitKey(action);
  // A timestamp in the future (a clock set back) would block forever: only the window counts.
  const recent = readLog(storage, key).filter((time) => time > now - windowMs && time <= now);
  const allowed = recent.length < maxAttempts;
  if (allowed) recent.push(now);
  try {
    storage.setItem(key, JSON.stringify(recent));
  } catch {
    // Storage full: the attempt is not remembered; the server's limit still holds.
  }
  return allowed;
}
