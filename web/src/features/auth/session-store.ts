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

let state: AuthState | null = null;
const listeners = new Set<() => void>();

export function getAuthState(): AuthState {
  state ??= { user: readStoredSessionUser(), sessionKey: null, isAdmin: false, confirmed: false };
  return state;
}

export function setAuthState(patch: Partial<AuthState>): void {
  const current = getAuthState();
  const next = { ...current, ...patch };
  if (
    next.user?.id === current.user?.id &&
    next.user?.email === current.user?.email &&
    next.sessionKey === current.sessionKey &&
    next.isAdmin === current.isAdmin &&
    next.confirmed === current.confirmed
  ) {
    return;
  }
  state = next;
  for (const listener of listeners) listener();
}

export function subscribeAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
