import { useSyncExternalStore } from 'react';
import { type AuthState, getAuthState, subscribeAuth } from '../session-store.ts';

/** Who is signed in (spec §2 top navigation, §4). Known from the first render (decision 061). */
export function useAuth(): AuthState {
  return useSyncExternalStore(subscribeAuth, getAuthState, getAuthState);
}
