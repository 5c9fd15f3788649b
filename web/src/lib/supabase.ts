import type { AuthChangeEvent, Session, SupabaseClient } from '@supabase/supabase-js';
import { getConfig } from './config.ts';
import { yieldToMain } from './yield-to-main.ts';

/**
 * The one configured API client.
 *
 * supabase-js is about 50 KB of gzipped JavaScript, so it is never imported statically: this module
 * only loads it on first use (`loadSupabase()`), which the app starts when the browser is idle after
 * its first render (see docs/decisions/061-deferred-supabase-client.md); a visitor's reads meanwhile
 * go through PostgREST's own client (`loadDatabase()`, decision 158). Anything that needs to know
 * whether someone is signed in before then reads the stored session synchronously (`authStorageKey`).
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
 * phone's mail app, a shared computer), so it signs in only the browser that signed up, through its
 * PKCE code (decision 165), and ends an implicit link's session rather than adopting it (decision 063).
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
  client ??= import('@supabase/supabase-js').then(async ({ createClient }) => {
    // The module's code was evaluated in the task that loaded it; the client (auth, realtime, storage
    // and REST clients, the stored session read) is built in a task of its own (decision 158).
    await yieldToMain();
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
    // What the callers do with it (the session's start, a realtime channel, queries) in another task.
    await yieldToMain();
    return supabase;
  });
  // A failed chunk load (offline, or a deploy replaced it) must not be remembered for ever.
  client.catch(() => {
    client = null;
  });
  return client;
}

/** What reading the database needs: the REST part of the client (`from`, `rpc`). */
export type Database = Pick<SupabaseClient, 'from' | 'rpc'>;

/** The parameters of an auth redirect's fragment that supabase-js turns into a session or an error. */
const AUTH_FRAGMENT = /[#&](access_token|refresh_token|error|error_code|error_description)=/;

/**
 * Whether supabase-js may have to speak for this page at once: it is loaded already, a session is
 * stored (a member, maybe signed in from another tab), or the address carries an auth redirect's
 * fragment (a sign-in, a password recovery, a refused link), which supabase-js reads on load.
 */
export function mayHaveSession(): boolean {
  if (client) return true;
  if (AUTH_FRAGMENT.test(window.location.hash)) return true;
  try {
    return window.localStorage.getItem(authStorageKey()) !== null;
  } catch {
    // Storage blocked: the stored session, if any, is unreadable for supabase-js too.
    return false;
  }
}

let publicDatabase: Promise<Database> | null = null;

/**
 * The client for reads (decision 158). A visitor with no session (nothing stored, no auth fragment,
 * supabase-js not loaded) reads through PostgREST's own client, @supabase/postgrest-js (what
 * supabase-js uses for `from` and `rpc`: the same queries, results and error objects), with the anon
 * key, exactly as supabase-js sends it without a session; it is about a tenth of supabase-js, so the
 * public pages' first data no longer waits for the auth and realtime clients to be loaded and built.
 * Anyone else gets supabase-js, whose requests carry the member's token.
 */
export function loadDatabase(): Promise<Database> {
  if (mayHaveSession()) return loadSupabase();
  publicDatabase ??= import('@supabase/postgrest-js').then(({ PostgrestClient }) => {
    const { supabaseUrl, anonKey } = getConfig();
    return new PostgrestClient(`${supabaseUrl}/rest/v1`, {
      schema: 'public',
      headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` },
    }) as unknown as Database;
  });
  publicDatabase.catch(() => {
    publicDatabase = null;
  });
  return publicDatabase;
}
