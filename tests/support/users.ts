import { randomBytes } from 'node:crypto';
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { adminClient, type ClientOptions, clientFor, type ServerKeys } from './clients.ts';

/**
 * Accounts for tests, made the way the product makes them: the service key creates a confirmed user
 * through the auth admin API (`auth.admin.createUser`), and the member signs in with
 * `signInWithPassword` on a client of their own, as the web app does; every request of that client
 * then carries the member's real access token. Sign-up itself has tests of its own (tests/compat/auth-*).
 */

export const PASSWORD = 'correct horse battery staple';

let counter = 0;
/** An address no other test of this run uses. */
export function uniqueEmail(prefix = 'user', domain = 'example.com'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}${randomBytes(2).toString('hex')}@${domain}`;
}

export interface UserOptions {
  id?: string;
  email?: string;
  password?: string;
  fullName?: string;
  /** Also grant the `admin` role (a row in public.user_roles, written with the service key). */
  admin?: boolean;
}

export interface User {
  id: string;
  email: string;
  password: string;
}

/** A confirmed account, created through the auth admin API. */
export async function createUser(
  server: Pick<ServerKeys, 'url' | 'serviceRoleKey'>,
  options: UserOptions = {},
): Promise<User> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? PASSWORD;
  const service = adminClient(server);
  const { data, error } = await service.auth.admin.createUser({
    ...(options.id ? { id: options.id } : {}),
    email,
    password,
    email_confirm: true,
    ...(options.fullName ? { user_metadata: { full_name: options.fullName } } : {}),
  });
  if (error || !data.user) throw new Error(`creating ${email}: ${error?.message ?? 'no user'}`);
  if (options.admin) {
    const granted = await service.from('user_roles').insert({ user_id: data.user.id, role: 'admin' });
    if (granted.error) throw new Error(`granting admin to ${email}: ${granted.error.message}`);
  }
  return { id: data.user.id, email, password };
}

export interface SignedInUser extends User {
  /** A client of the member's own, signed in: every request carries their access token. */
  client: SupabaseClient;
  session: Session;
  /** The session's access token. */
  token: string;
}

/** Signs an existing account in on a client of its own. */
export async function signIn(
  server: ServerKeys,
  user: User,
  options: Omit<ClientOptions, 'accessToken' | 'key'> = {},
): Promise<SignedInUser> {
  const client = clientFor(server, options);
  const { data, error } = await client.auth.signInWithPassword({
    email: user.email,
    password: user.password,
  });
  if (error || !data.session) throw new Error(`signing in ${user.email}: ${error?.message ?? 'no session'}`);
  return { ...user, client, session: data.session, token: data.session.access_token };
}

/** A new confirmed account, signed in on a client of its own. */
export async function signedInUser(
  server: ServerKeys,
  options: UserOptions & Omit<ClientOptions, 'accessToken' | 'key'> = {},
): Promise<SignedInUser> {
  const { headers, flowType, ...account } = options;
  return signIn(server, await createUser(server, account), { headers, flowType });
}

/** A new confirmed account with the admin role (granted with the service key), signed in. */
export async function signedInAdmin(
  server: ServerKeys,
  options: UserOptions & Omit<ClientOptions, 'accessToken' | 'key'> = {},
): Promise<SignedInUser> {
  const admin = await signedInUser(server, options);
  const granted = await adminClient(server).from('user_roles').insert({ user_id: admin.id, role: 'admin' });
  if (granted.error) throw new Error(`granting the admin role: ${granted.error.message}`);
  return admin;
}
