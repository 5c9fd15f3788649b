import { useStore } from '#web/lib/store.ts';
import { type AuthState, authStore } from '../session-store.ts';

/** Who is signed in (product §navigation, §session). Known from the first render (decision 061). */
export function useAuth(): AuthState {
  return useStore(authStore);
}

/**
 * The member's id once supabase-js has confirmed the session; null before that and for a visitor.
 * Everything that loads the member's data waits for it, so the first render carries no API client
 * (decision 061) and a stored session the client overturns loads nothing.
 */
export function useConfirmedUserId(): string | null {
  return useStore(authStore, (state) => (state.confirmed ? (state.user?.id ?? null) : null));
}

/**
 * Who reads a page that anyone may read but that says more to a member: the member's id once
 * supabase-js has confirmed the session, null for a visitor (known from the first render), and
 * undefined while a stored session is not yet confirmed, so such a page asks once, as its reader,
 * instead of first as a visitor and again as the member (which would render it twice).
 */
export function useReaderId(): string | null | undefined {
  return useStore(authStore, (state) =>
    state.user === null ? null : state.confirmed ? state.user.id : undefined,
  );
}
