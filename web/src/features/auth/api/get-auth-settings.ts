import { queryOptions } from '@tanstack/react-query';
import { getConfig } from '#web/lib/config.ts';

/**
 * `GET /auth/v1/settings`: which sign-in methods the server offers (the social provider is under
 * `external`). supabase-js has no call for it, so this is the one request made with plain fetch; it
 * carries the anon key as supabase-js's requests do.
 */
export async function getAuthSettings(): Promise<unknown> {
  const { supabaseUrl, anonKey } = getConfig();
  const response = await fetch(`${supabaseUrl}/auth/v1/settings`, {
    headers: { apikey: anonKey, accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`auth settings answered ${response.status}`);
  return (await response.json()) as unknown;
}

/** Kept for the page's lifetime (the server's settings do not change under it); a failure is not kept. */
export const authSettingsQueryOptions = queryOptions({
  queryKey: ['auth', 'settings'],
  queryFn: getAuthSettings,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
});
