import type { SupabaseClient } from '@supabase/supabase-js';
import { adminClient, clientFor } from './auth.ts';
import type { TestServer } from './test-server.ts';

/**
 * Accounts for the data API's compat tests, made the way the product makes them: the service key
 * creates a confirmed user (`auth.admin.createUser`), and the member signs in with
 * `signInWithPassword` on a client of their own, as the web app does. Every request of that client
 * then carries the member's access token.
 */

export const MEMBER_PASSWORD = 'correct horse battery staple';

export interface Member {
  id: string;
  email: string;
  client: SupabaseClient;
}

export async function signedInMember(
  server: Pick<TestServer, 'url' | 'anonKey' | 'serviceRoleKey'>,
  account: { id?: string; email: string; fullName?: string },
): Promise<Member> {
  const { data: created, error: createError } = await adminClient(server).auth.admin.createUser({
    ...(account.id ? { id: account.id } : {}),
    email: account.email,
    password: MEMBER_PASSWORD,
    email_confirm: true,
    ...(account.fullName ? { user_metadata: { full_name: account.fullName } } : {}),
  });
  if (createError || !created.user) throw new Error(`creating ${account.email}: ${createError?.message}`);
  const client = clientFor(server);
  const { data, error } = await client.auth.signInWithPassword({
    email: account.email,
    password: MEMBER_PASSWORD,
  });
  if (error || !data.session) throw new Error(`signing in ${account.email}: ${error?.message}`);
  return { id: created.user.id, email: account.email, client };
}
