import { authStorageKey } from '#web/lib/supabase.ts';

/** What the page needs to know about the signed-in member. */
export interface SessionUser {
  id: string;
  email: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The member of a session as supabase-js stores it (JSON: access_token, refresh_token, expires_at,
 * user, …), or null. An expired access token still counts: supabase-js refreshes it once loaded, and
 * reports SIGNED_OUT if that fails.
 */
export function parseStoredSession(raw: string | null): SessionUser | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  // Older supabase-js versions wrapped the session as { currentSession, expiresAt }.
  if (isRecord(value) && isRecord(value.currentSession)) value = value.currentSession;
  if (!isRecord(value) || typeof value.refresh_token !== 'string' || value.refresh_token === '') return null;
  const user = value.user;
  if (!isRecord(user) || typeof user.id !== 'string' || user.id === '') return null;
  return { id: user.id, email: typeof user.email === 'string' ? user.email : '' };
}

/**
 * Reads the stored session synchronously, before supabase-js has loaded, so the first render already
 * shows the member's navigation (decision 061).
 */
export function readStoredSessionUser(): SessionUser | null {
  try {
    return parseStoredSession(window.localStorage.getItem(authStorageKey()));
  } catch {
    // Storage blocked (privacy mode, sandboxed frame): the client will tell once it has loaded.
    return null;
  }
}

/**
 * Whether a `storage` event says another tab of this browser removed the stored session (signed out,
 * or cleared the site's storage). supabase-js tells open tabs over a BroadcastChannel too; the browser
 * tests showed a tab that never heard it (issue 34's cross-tab sign-out), so the storage event, which
 * the browser sends every other tab of the origin, says it a second time.
 */
export function storedSessionRemoved(
  event: { key: string | null; newValue: string | null },
  key: string,
): boolean {
  return event.key === null || (event.key === key && event.newValue === null);
}

/** Removes the stored session, for signing out when the server cannot be reached (product §session). */
export function clearStoredSession(): void {
  const key = authStorageKey();
  try {
    for (const name of [key, `${key}-code-verifier`, `${key}-user`]) window.localStorage.removeItem(name);
  } catch {
    // Nothing stored that we could remove.
  }
}

/**
 * The session's identity for the idle timer: the access token's `session_id` claim, which stays the
 * same across refreshes and changes with every sign-in. Falls back to the user id.
 */
export function sessionKeyOf(accessToken: string | undefined, userId: string): string {
  const payload = accessToken?.split('.')[1];
  if (payload) {
    try {
      const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
      const claims: unknown = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')));
      if (isRecord(claims) && typeof claims.session_id === 'string') return claims.session_id;
    } catch {
      // Not a JWT we can read; the user id will do.
    }
  }
  return `user:${userId}`;
}
