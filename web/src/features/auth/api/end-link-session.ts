import { loadSupabase } from '#web/lib/supabase.ts';

/** Tokens whose session this page has already ended (or is ending). */
const ended = new Set<string>();

/**
 * Ends the session an emailed confirmation link created, without adopting it (decision 063): the
 * server's /logout with that session's own access token. supabase-js exposes this call on its admin
 * namespace, but it needs no privileged key — the token authorises it.
 *
 * Once per token: the page may mount twice (a development double render, or a remount while the
 * address bar is cleaned), and a second logout would only meet the server's 403 for a session that
 * no longer exists.
 */
export async function endLinkSession(accessToken: string): Promise<void> {
  if (ended.has(accessToken)) return;
  ended.add(accessToken);
  const supabase = await loadSupabase();
  await supabase.auth.admin.signOut(accessToken, 'local');
}
