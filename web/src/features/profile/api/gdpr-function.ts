import { getConfig } from '#web/lib/config.ts';
import { loadSupabase } from '#web/lib/supabase.ts';

/** No session: the caller shows "Authentication Required" (product §data-rights). */
export class NoSessionError extends Error {
  override name = 'NoSessionError';
}

async function accessToken(): Promise<string> {
  const supabase = await loadSupabase();
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new NoSessionError('No session');
  return token;
}

/**
 * Product §server-functions: a data-rights function (export, deletion) called with the member's Bearer
 * access token and JSON content type; NoSessionError without a session.
 */
export async function callGdprFunction(
  name: string,
  init: { method: 'POST' | 'DELETE'; body?: string },
): Promise<Response> {
  const token = await accessToken();
  return fetch(`${getConfig().supabaseUrl.replace(/\/$/, '')}/functions/v1/${name}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  });
}
