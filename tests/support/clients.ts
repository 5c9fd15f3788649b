import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

/**
 * supabase-js clients as Node uses them (no stored session, no refresh timer, ws for realtime): the
 * anon key's, the service key's, and a signed-in member's. A server here is only a URL and keys.
 */

export interface ServerKeys {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
}

export interface ClientOptions {
  /** The API key (default: the anon key). */
  key?: string;
  flowType?: 'implicit' | 'pkce';
  /** A fixed access token for every request (a token minted by tokens.ts, or one taken from a session). */
  accessToken?: string;
  /** Extra headers on every request, e.g. x-forwarded-for to be a client address of its own. */
  headers?: Record<string, string>;
  /** The realtime protocol version (supabase-js's default when unset). */
  vsn?: '1.0.0' | '2.0.0';
}

export function clientFor(
  server: Pick<ServerKeys, 'url' | 'anonKey'>,
  options: ClientOptions = {},
): SupabaseClient {
  const { accessToken } = options;
  return createClient(server.url, options.key ?? server.anonKey, {
    auth: {
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      flowType: options.flowType ?? 'implicit',
    },
    ...(options.headers ? { global: { headers: options.headers } } : {}),
    ...(accessToken ? { accessToken: async () => accessToken } : {}),
    realtime: { transport: WebSocket as never, ...(options.vsn ? { vsn: options.vsn } : {}) },
  });
}

/** The anon key's client: a visitor who is not signed in. */
export function anonClient(
  server: Pick<ServerKeys, 'url' | 'anonKey'>,
  options: Omit<ClientOptions, 'key'> = {},
) {
  return clientFor(server, options);
}

/** The service key's client: arranges data and checks results (it bypasses row-level security). */
export function adminClient(
  server: Pick<ServerKeys, 'url' | 'serviceRoleKey'>,
  options: Omit<ClientOptions, 'key' | 'accessToken'> = {},
): SupabaseClient {
  return clientFor({ url: server.url, anonKey: server.serviceRoleKey }, options);
}

/** A client that sends `token` as the user's access token on every request (REST, storage, realtime). */
export function tokenClient(
  server: Pick<ServerKeys, 'url' | 'anonKey'>,
  token: string,
  options: ClientOptions = {},
) {
  return clientFor(server, { ...options, accessToken: token });
}
