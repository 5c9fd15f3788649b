import { loadSupabase } from '#web/lib/supabase.ts';
import { clearStoredSession } from '../stored-session.ts';

/**
 * Product §session: sign-out clears the session; if the server call fails, local state is cleared anyway.
 * supabase-js keeps the session when /logout fails for any reason but 401/403/404 (a network error,
 * a 5xx), so then the stored session is removed by hand and a local sign-out lets the client notice
 * (it finds no session, forgets it and reports SIGNED_OUT). Never throws.
 */
export async function signOut(): Promise<void> {
  const supabase = await loadSupabase().catch(() => null);
  if (supabase) {
    try {
      const { error } = await supabase.auth.signOut();
      if (!error) return;
    } catch {
      // Treated as a failed server call.
    }
  }
  clearStoredSession();
  await supabase?.auth.signOut({ scope: 'local' }).catch(() => {});
}
