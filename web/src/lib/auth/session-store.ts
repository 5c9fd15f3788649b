import { createStore } from '#web/lib/store.ts';
import { readStoredSessionUser, type SessionUser } from './stored-session.ts';

/** The page's view of who is signed in. */
export interface AuthState {
  user: SessionUser | null;
  /** The access token's session, for the idle timer (see sessionKeyOf); null until the client has loaded. */
  sessionKey: string | null;
  isAdmin: boolean;
  /**
   * Whether supabase-js has spoken. Before that, `user` is what the stored session says (read
   * synchronously for the first render), which the client may still overturn.
   */
  confirmed: boolean;
}

const sameState = (a: AuthState, b: AuthState) =>
  a.user?.id === b.user?.id &&
  a.user?.email === b.user?.email &&
  a.sessionKey === b.sessionKey &&
  a.isAdmin === b.isAdmin &&
  a.confirmed === b.confirmed;

const SIGNED_OUT: AuthState = { user: null, sessionKey: null, isAdmin: false, confirmed: false };

/**
 * Filled from the stored session when first read, so the first render knows the member (decision 061).
 * A prerendered page is a visitor's (no one is signed in at build time): hydration starts signed out
 * and re-renders with the member at once (decision 157).
 */
export const authStore = createStore<AuthState>(() => ({ ...SIGNED_OUT, user: readStoredSessionUser() }), {
  equals: sameState,
  serverValue: SIGNED_OUT,
});

export const getAuthState = authStore.get;

export function setAuthState(patch: Partial<AuthState>): void {
  authStore.set((current) => ({ ...current, ...patch }));
}
