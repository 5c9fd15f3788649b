import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { authStorageKey, followAuthEvents, loadSupabase } from '#web/lib/supabase.ts';
import { clearTabDrafts } from '#web/lib/tab-drafts.ts';
import { ensureProfile } from './api/ensure-profile.ts';
import { getIsAdmin } from './api/get-is-admin.ts';
import { getAuthState, setAuthState } from './session-store.ts';
import { type SessionUser, sessionKeyOf, storedSessionRemoved } from './stored-session.ts';

/**
 * The session lifecycle (product §session): supabase-js restores the session from storage, refreshes it
 * before it expires and removes it when refreshing fails for good; this module mirrors its events
 * (INITIAL_SESSION, SIGNED_IN, SIGNED_OUT, TOKEN_REFRESHED, USER_UPDATED, PASSWORD_RECOVERY,
 * MFA_CHALLENGE_VERIFIED) into the session store, and on each new sign-in makes sure the member has
 * a profile and learns whether they are an admin.
 */
let started: Promise<void> | null = null;
let lastUserId: string | null = null;
const recoveryHandlers = new Set<() => void>();

/** Called when the page was opened from a password recovery link (PASSWORD_RECOVERY). */
export function onPasswordRecovery(handler: () => void): () => void {
  recoveryHandlers.add(handler);
  return () => recoveryHandlers.delete(handler);
}

function userOf(session: Session): SessionUser {
  return { id: session.user.id, email: session.user.email ?? '' };
}

/** Work for a member who just appeared (sign-in, or a restored session on page load). */
function welcome(session: Session): void {
  const user = userOf(session);
  ensureProfile({ ...user, fullName: session.user.user_metadata?.full_name }).catch((error: unknown) => {
    console.warn('Could not create the missing profile:', error);
  });
  getIsAdmin(user.id)
    .then((isAdmin) => {
      if (getAuthState().user?.id === user.id) setAuthState({ isAdmin });
    })
    .catch(() => {
      // Not knowing means no Admin Panel link; the admin pages check again on their own.
    });
}

export function handleAuthEvent(event: AuthChangeEvent, session: Session | null): void {
  if (!session) {
    // A member's session ended: what was typed in this tab before goes with it (decision 242).
    if (lastUserId !== null) clearTabDrafts();
    lastUserId = null;
    setAuthState({ user: null, sessionKey: null, isAdmin: false, confirmed: true });
    return;
  }
  const user = userOf(session);
  const sameUser = user.id === lastUserId;
  setAuthState({
    user,
    sessionKey: sessionKeyOf(session.access_token, user.id),
    isAdmin: sameUser ? getAuthState().isAdmin : false,
    confirmed: true,
  });
  if (!sameUser) {
    lastUserId = user.id;
    // Outside the callback: supabase-js awaits its subscribers, and these make their own calls.
    setTimeout(() => welcome(session), 0);
  }
  if (event === 'PASSWORD_RECOVERY') {
    for (const handler of recoveryHandlers) handler();
  }
}

let refusedLink = false;

/** Whether this page was opened from an emailed link the auth server refused (used or expired). */
export function openedFromRefusedLink(): boolean {
  return refusedLink || /[#&](error|error_code|error_description)=/.test(window.location.hash);
}

/** Drops an auth redirect's leftovers (an error) from the address bar. */
function clearFragment(): void {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
}

/**
 * Loads supabase-js and starts following the session. Idempotent; called after the first render
 * (decision 061) and at once by the screens that need the client.
 */
export function startAuthSession(): Promise<void> {
  started ??= loadSupabase()
    .then(async (supabase) => {
      followAuthEvents(handleAuthEvent);
      const key = authStorageKey();
      window.addEventListener('storage', (event) => {
        if (storedSessionRemoved(event, key) && getAuthState().user) handleAuthEvent('SIGNED_OUT', null);
      });
      // An auth redirect that failed (expired link, refused social sign-in) arrives as an error in
      // the fragment; supabase-js reports it here.
      const { error } = await supabase.auth.initialize();
      if (error && /[#&](error|error_code|error_description)=/.test(window.location.hash)) {
        toast({ variant: 'destructive', title: 'Error', description: error.message || errorText(error) });
        refusedLink = true;
        clearFragment();
      }
      // supabase-js empties the fragment after taking a session from it, which leaves a bare "#".
      if (window.location.href.endsWith('#')) clearFragment();
    })
    .catch(() => {
      // The client could not load (offline): the next call tries again.
      started = null;
    });
  return started;
}
