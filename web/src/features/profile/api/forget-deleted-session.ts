import { clearStoredSession } from '#web/lib/auth/stored-session.ts';
import { loadSupabase } from '#web/lib/supabase.ts';

/**
 * After the deletion the account and its sessions are gone on the server: forget the session here
 * only, rather than asking the server to end a session of an account that no longer exists.
 */
export async function forgetDeletedSession(): Promise<void> {
  const supabase = await loadSupabase();
  // With no stored session, supabase-js signs out without calling the server (as sign-out.ts does).
  clearStoredSession();
  await supabase.auth.signOut({ scope: 'local' }).catch(() => {});
}
