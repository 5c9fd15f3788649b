import { loadSupabase } from '../../../lib/supabase.ts';

/**
 * Ends the session an emailed confirmation link created, without adopting it (decision 063): the
 * server's /logout with that session's own access token. supabase-js exposes this call on its admin
 * namespace, but it needs no privileged key — the token authorises it.
 */
export async function endLinkSession(accessToken: string): Promise<void> {
  const supabase = await loadSupabase();
  await supabase.auth.admin.signOut(accessToken, 'local');
}
