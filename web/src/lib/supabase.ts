import type { AuthChangeEvent, Session, SupabaseClient } from '@supabase/supabase-js';
import { getConfig } from './config.ts';

/**
 * The one configured API client.
 *
 * supabase-js is about 40 KB of gzipped JavaScript, so it is never imported statically: this module
 * only loads it on first use (`loadSupabase()`), which the app starts right after its first render
 * (see docs/decisions/061-deferred-supabase-client.md). Anything that needs to know whether someone
 * is signed in before then reads the stored session synchronously (`authStorageKey`).
 */
let client: Promise<SupabaseClient> | null = null;

/**
 * Where supabase-js keeps the session in localStorage: its default key
 * (`sb-<first label of the API host>-auth-token`, see SupabaseClient's constructor), spelled out
 * here and passed to the client explicitly so the synchronous reader and the client cannot disagree.
 */
export function authStorageKey(supabaseUrl: string = getConfig().supabaseUrl): string {
  return `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;
}

/**
 * Pages that consume an auth redirect's fragment themselves instead of letting supabase-js turn it
 * into a session. The email-confirmed page is one: the confirmation link may be opened anywhere (a
 * phone's mail app, a shared computer), and the page tells the visitor to sign in in their main
 * browser, so it ends the session the link created rather than adopting it (decision 063).
 */
export const PAGES_HANDLING_OWN_AUTH_FRAGMENT: readonly string[] = ['/email-confirmed'];

type AuthListener = (event: AuthChangeEvent, session: Session | null) => void;
let authListener: AuthListener | null = null;
const earlyAuthEvents: [AuthChangeEvent, Session | null][] = [];

/**
 * Follows the client's auth events, including those it sent before this was called. Whichever part
 * of the page loads the client first (a page's query, often), it reads an auth redirect's fragment at
 * once and reports PASSWORD_RECOVERY then, to the listeners it has: the session module may only
 * start following later (when the browser is idle), so the events are kept for it until then.
 */
export function followAuthEvents(listener: AuthListener): void {
  authListener = listener;
  for (const [event, session] of earlyAuthEvents.splice(0)) listener(event, session);
}

export function loadSupabase(): Promise<SupabaseClient> {
  client ??= import('@supabase/supabase-js').then(({ createClient }) => {
    const { supabaseUrl, anonKey } = getConfig();
    const supabase = createClient(supabaseUrl, anonKey, {
      auth: {
        storageKey: authStorageKey(supabaseUrl),
        persistSession: true,
        autoRefreshToken: true,
        flowType: 'implicit',
        detectSessionInUrl: (url, params) =>
          !PAGES_HANDLING_OWN_AUTH_FRAGMENT.includes(url.pathname) &&
          Boolean(params.access_token || params.error || params.error_description || params.error_code),
      },
    });
    // Subscribed before the client has read the address, so no event is missed (followAuthEvents).
    supabase.auth.onAuthStateChange((event, session) => {
      if (authListener) authListener(event, session);
      else earlyAuthEvents.push([event, session]);
    });
    return supabase;
  });
  // A failed chunk load (offline, or a deploy replaced it) must not be remembered for ever.
  client.catch(() => {
    client = null;
  });
  return client;
}
