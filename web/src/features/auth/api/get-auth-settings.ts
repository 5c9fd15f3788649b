import { getConfig } from '../../../lib/config.ts';

/**
 * `GET /auth/v1/settings`: which sign-in methods the server offers (the social provider is under
 * `external`). supabase-js has no call for it, so this is the one request made with plain fetch; it
 * carries the anon key as supabase-js's requests do. Cached for the page's lifetime; a failure is
 * not cached.
 */
let pending: Promise<unknown> | null = null;

export function getAuthSettings(): Promise<unknown> {
  pending ??= (async () => {
    const { supabaseUrl, anonKey } = getConfig();
    const response = await fetch(`${supabaseUrl}/auth/v1/settings`, {
      headers: { apikey: anonKey, accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`auth settings answered ${response.status}`);
    return (await response.json()) as unknown;
  })();
  pending.catch(() => {
    pending = null;
  });
  return pending;
}
