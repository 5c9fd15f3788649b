import { addSecurityContext } from './security-events.ts';

/**
 * The page's security (CSRF) token (product §csrf-token): regenerated every 30 minutes, valid for 1 hour,
 * kept in sessionStorage so it lives as long as the tab. Forms that change data (the scammer report)
 * refuse to submit without a valid one ("Security token missing. Please refresh the page and try
 * again."), and security events carry its first 8 characters (§security-events).
 *
 * The data API authorises by bearer token, never by cookie, so a cross-site page cannot ride on a
 * member's session anyway; the token is the specification's defence in depth (decision 080).
 */
export const CSRF_STORAGE_KEY = 'hg_csrf_token';
export const CSRF_ROTATE_MS = 30 * 60 * 1000;
export const CSRF_VALID_MS = 60 * 60 * 1000;

interface StoredToken {
  token: string;
  createdAt: number;
}

/** The storage the token lives in; a parameter so tests can pass their own. */
export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function browserStorage(): TokenStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled: no token, and the forms say so
  }
}

/** 32 random bytes as 64 hex characters. */
export function generateCsrfToken(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function read(storage: TokenStorage): StoredToken | null {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(CSRF_STORAGE_KEY) ?? 'null');
    if (
      parsed &&
      typeof parsed === 'object' &&
      'token' in parsed &&
      'createdAt' in parsed &&
      typeof parsed.token === 'string' &&
      /^[0-9a-f]{64}$/.test(parsed.token) &&
      typeof parsed.createdAt === 'number' &&
      Number.isFinite(parsed.createdAt)
    ) {
      return { token: parsed.token, createdAt: parsed.createdAt };
    }
  } catch {
    // Not JSON: treated as no token.
  }
  return null;
}

/** The stored token while it is valid (created within the last hour, not in the future), else null. */
export function getCsrfToken(
  storage: TokenStorage | null = browserStorage(),
  now = Date.now(),
): string | null {
  if (!storage) return null;
  const stored = read(storage);
  if (!stored) return null;
  const age = now - stored.createdAt;
  return age >= 0 && age < CSRF_VALID_MS ? stored.token : null;
}

/** Stores a fresh token and returns it. */
export function regenerateCsrfToken(
  storage: TokenStorage | null = browserStorage(),
  now = Date.now(),
): string {
  const token = generateCsrfToken();
  try {
    storage?.setItem(CSRF_STORAGE_KEY, JSON.stringify({ token, createdAt: now } satisfies StoredToken));
  } catch {
    // Storage full or disabled: the token is not kept, and getCsrfToken reports it missing.
  }
  return token;
}

/** Keeps the current token while younger than 30 minutes, otherwise makes a new one. */
export function refreshCsrfToken(storage: TokenStorage | null = browserStorage(), now = Date.now()): string {
  const stored = storage ? read(storage) : null;
  if (stored && now - stored.createdAt >= 0 && now - stored.createdAt < CSRF_ROTATE_MS) return stored.token;
  return regenerateCsrfToken(storage, now);
}

/** product §csrf-token: security events carry the token's first 8 characters, never the whole token. */
export function csrfTokenPrefix(token: string | null): string | null {
  return token ? token.slice(0, 8) : null;
}

/**
 * Starts the rotation for this tab (once, from the app shell): a token now, a new one every 30
 * minutes, and the prefix in every security event. Returns a function that stops it.
 */
export function startCsrfTokenRotation(): () => void {
  refreshCsrfToken();
  const timer = window.setInterval(() => refreshCsrfToken(), CSRF_ROTATE_MS);
  // After the tab slept (timers paused), check on return rather than wait for the next tick.
  const onVisible = () => {
    if (document.visibilityState === 'visible') refreshCsrfToken();
  };
  document.addEventListener('visibilitychange', onVisible);
  const removeContext = addSecurityContext(() => ({ csrf_token_prefix: csrfTokenPrefix(getCsrfToken()) }));
  return () => {
    window.clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
    removeContext();
  };
}
