import type { AuthClient as AuthClientClass } from '@supabase/supabase-js';
import { getConfig } from '#web/lib/config.ts';
import { authStorageKey } from '#web/lib/supabase.ts';

type AuthClient = InstanceType<typeof AuthClientClass>;

let client: Promise<AuthClient> | null = null;

/**
 * The auth client that signs up and resends the confirmation mail with PKCE (decision 165). The
 * app's client uses the implicit flow; this one asks GoTrue for a code link instead, and keeps the
 * code's verifier in this browser's localStorage (supabase-js's PKCE slots under its own storage key).
 * The confirmation link's `?code=` can then be exchanged only where the verifier is: the browser
 * that signed up is signed in; any other browser only learns that the address is confirmed.
 *
 * The session the exchange returns is never stored under this client's key (it is handed to the app's
 * client, which keeps it), so the storage below keeps everything but the session key in localStorage.
 */
export function signUpAuthClient(): Promise<AuthClient> {
  client ??= import('@supabase/supabase-js').then(({ AuthClient: Client }) => {
    const { supabaseUrl, anonKey } = getConfig();
    const storageKey = `${authStorageKey(supabaseUrl)}-sign-up`;
    const session = new Map<string, string>();
    return new Client({
      url: `${supabaseUrl}/auth/v1`,
      headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` },
      storageKey,
      storage: {
        getItem: (key) =>
          key === storageKey ? (session.get(key) ?? null) : window.localStorage.getItem(key),
        setItem: (key, value) => {
          if (key === storageKey) session.set(key, value);
          else window.localStorage.setItem(key, value);
        },
        removeItem: (key) => {
          if (key === storageKey) session.delete(key);
          else window.localStorage.removeItem(key);
        },
      },
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      flowType: 'pkce',
    });
  });
  client.catch(() => {
    client = null;
  });
  return client;
}
