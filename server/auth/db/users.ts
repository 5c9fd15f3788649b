import type { Queryable } from '../../db/driver.ts';
import { one } from '../../db/sql.ts';
import type { SessionRow } from './sessions.ts';

/**
 * The auth service's SQL: users and their identities. Every value is a bind parameter; the service runs as
 * the connecting (owner) role, as GoTrue runs as supabase_auth_admin, so no request scope applies.
 */

export const INSTANCE_ID = '00000000-0000-0000-0000-000000000000';

export interface IdentityRow {
  identity_id: string;
  id: string;
  user_id: string;
  identity_data: Record<string, unknown> | null;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  email: string | null;
}

export interface FactorRow {
  id: string;
  friendly_name: string | null;
  factor_type: string;
  status: string;
  created_at: string;
  updated_at: string;
  last_challenged_at: string | null;
  phone: string | null;
}

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  invited_at: string | null;
  confirmation_sent_at: string | null;
  confirmed_at: string | null;
  recovery_sent_at: string | null;
  email_change: string | null;
  email_change_sent_at: string | null;
  email_change_confirm_status: number | null;
  phone: string | null;
  phone_confirmed_at: string | null;
  phone_change: string | null;
  phone_change_sent_at: string | null;
  reauthentication_sent_at: string | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  banned_until: string | null;
  deleted_at: string | null;
  is_anonymous: boolean;
  is_sso_user: boolean;
  banned: boolean;
  identities: IdentityRow[];
  factors: FactorRow[];
}

export const USER_COLUMNS = `
  u.id, u.aud, u.role, u.email, u.encrypted_password, u.email_confirmed_at, u.invited_at,
    u.confirmation_sent_at, u.confirmed_at, u.recovery_sent_at, u.email_change, u.email_change_sent_at,
    u.email_change_confirm_status, u.phone, u.phone_confirmed_at, u.phone_change, u.phone_change_sent_at,
    u.reauthentication_sent_at, u.last_sign_in_at, u.raw_app_meta_data, u.raw_user_meta_data, u.created_at,
    u.updated_at, u.banned_until, u.deleted_at, u.is_anonymous, u.is_sso_user,
    coalesce(u.banned_until > now(), false) as banned,
    coalesce((
      select json_agg(json_build_object(
        'identity_id', i.id, 'id', i.provider_id, 'user_id', i.user_id, 'identity_data', i.identity_data,
        'provider', i.provider, 'last_sign_in_at', i.last_sign_in_at, 'created_at', i.created_at,
        'updated_at', i.updated_at, 'email', i.email) order by i.created_at, i.id)
      from auth.identities i where i.user_id = u.id), '[]'::json) as identities,
    coalesce((
      select json_agg(json_build_object(
        'id', f.id, 'friendly_name', f.friendly_name, 'factor_type', f.factor_type, 'status', f.status,
        'created_at', f.created_at, 'updated_at', f.updated_at, 'last_challenged_at', f.last_challenged_at,
        'phone', f.phone) order by f.created_at, f.id)
      from auth.mfa_factors f where f.user_id = u.id), '[]'::json) as factors`;

export const USER_SELECT = `select ${USER_COLUMNS} from auth.users u`;

// ----------------------------------------------------------------------------------------------
// Users
// ----------------------------------------------------------------------------------------------

export function findUserById(tx: Queryable, id: string, forUpdate = false): Promise<UserRow | undefined> {
  return one<UserRow>(tx, `${USER_SELECT} where u.id = $1${forUpdate ? ' for update of u' : ''}`, [id]);
}

export function findUserByEmail(
  tx: Queryable,
  email: string,
  forUpdate = false,
): Promise<UserRow | undefined> {
  return one<UserRow>(
    tx,
    `${USER_SELECT} where lower(u.email) = $1 and u.is_sso_user = false${forUpdate ? ' for update of u' : ''}`,
    [email],
  );
}

/** The user and whether the JWT's session still exists, in one round trip (GET /user and friends). */
export async function findUserAndSession(
  tx: Queryable,
  userId: string,
  sessionId: string | null,
): Promise<{ user: UserRow | undefined; session: SessionRow | undefined }> {
  const row = await one<UserRow & { session: SessionRow | null }>(
    tx,
    `select ${USER_COLUMNS},
       (select row_to_json(s) from (
          select id, user_id, aal, factor_id, created_at, not_after from auth.sessions
          where id = $2::uuid and user_id = u.id) s) as session
     from auth.users u where u.id = $1`,
    [userId, sessionId],
  );
  if (!row) return { user: undefined, session: undefined };
  const { session, ...user } = row;
  return { user, session: session ?? undefined };
}

export interface NewUser {
  id: string;
  email: string | null;
  encryptedPassword: string;
  emailConfirmed: boolean;
  invited: boolean;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  role?: string;
  bannedUntil?: string | null;
  /** An anonymous sign-in (no email, phone or password; decision 148). */
  isAnonymous?: boolean;
}

export async function insertUser(tx: Queryable, user: NewUser): Promise<void> {
  await tx.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       invited_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, banned_until, is_sso_user,
       is_anonymous)
     values ($1, $2, 'authenticated', $3, $4, $5, case when $6 then now() end, case when $7 then now() end,
       $8, $9, now(), now(), $10, false, $11)`,
    [
      INSTANCE_ID,
      user.id,
      user.role ?? 'authenticated',
      user.email,
      user.encryptedPassword,
      user.emailConfirmed,
      user.invited,
      JSON.stringify(user.appMetadata),
      JSON.stringify(user.userMetadata),
      user.bannedUntil ?? null,
      user.isAnonymous ?? false,
    ],
  );
}

export interface UserChanges {
  email?: string | null;
  encryptedPassword?: string;
  emailConfirmedNow?: boolean;
  emailUnconfirm?: boolean;
  appMetadata?: Record<string, unknown>;
  userMetadata?: Record<string, unknown>;
  role?: string;
  bannedUntil?: string | null;
  emailChange?: string | null;
  emailChangeConfirmStatus?: number;
  confirmationSentNow?: boolean;
  recoverySentNow?: boolean;
  emailChangeSentNow?: boolean;
  reauthenticationSentNow?: boolean;
  invitedNow?: boolean;
  isAnonymous?: boolean;
}

const CHANGE_COLUMNS: [keyof UserChanges, string, (value: unknown) => unknown][] = [
  ['email', 'email', (v) => v],
  ['encryptedPassword', 'encrypted_password', (v) => v],
  ['appMetadata', 'raw_app_meta_data', (v) => JSON.stringify(v)],
  ['userMetadata', 'raw_user_meta_data', (v) => JSON.stringify(v)],
  ['role', 'role', (v) => v],
  ['bannedUntil', 'banned_until', (v) => v],
  ['emailChange', 'email_change', (v) => v ?? ''],
  ['emailChangeConfirmStatus', 'email_change_confirm_status', (v) => v],
  ['isAnonymous', 'is_anonymous', (v) => v],
];

const NOW_COLUMNS: [keyof UserChanges, string][] = [
  ['emailConfirmedNow', 'email_confirmed_at'],
  ['confirmationSentNow', 'confirmation_sent_at'],
  ['recoverySentNow', 'recovery_sent_at'],
  ['emailChangeSentNow', 'email_change_sent_at'],
  ['reauthenticationSentNow', 'reauthentication_sent_at'],
  ['invitedNow', 'invited_at'],
];

/** Updates the given columns (names fixed here, values bound) and `updated_at`. */
export async function updateUser(tx: Queryable, id: string, changes: UserChanges): Promise<void> {
  const sets: string[] = ['updated_at = now()'];
  const params: unknown[] = [id];
  for (const [key, column, encode] of CHANGE_COLUMNS) {
    if (changes[key] === undefined) continue;
    params.push(encode(changes[key]));
    sets.push(`${column} = $${params.length}`);
  }
  for (const [key, column] of NOW_COLUMNS) if (changes[key]) sets.push(`${column} = now()`);
  if (changes.emailUnconfirm) sets.push('email_confirmed_at = null');
  await tx.query(`update auth.users set ${sets.join(', ')} where id = $1`, params);
}

export async function deleteUser(tx: Queryable, id: string): Promise<void> {
  await tx.query('delete from auth.users where id = $1', [id]);
}

/** GoTrue's soft delete: the row stays (foreign keys keep pointing at it), every credential goes. */
export async function softDeleteUser(tx: Queryable, id: string): Promise<void> {
  await tx.query(
    `update auth.users set
       email = case when email is null then null else encode(sha256(convert_to(email || id::text, 'UTF8')), 'hex') || '@deleted.invalid' end,
       phone = null, encrypted_password = '', email_change = '', raw_app_meta_data = '{}'::jsonb,
       raw_user_meta_data = '{}'::jsonb, deleted_at = now(), updated_at = now(), banned_until = null
     where id = $1`,
    [id],
  );
  await tx.query('delete from auth.identities where user_id = $1', [id]);
  await tx.query('delete from auth.mfa_factors where user_id = $1', [id]);
  await tx.query('delete from auth.webauthn_credentials where user_id = $1', [id]);
  await tx.query('delete from auth.sessions where user_id = $1', [id]);
  await tx.query('delete from auth.one_time_tokens where user_id = $1', [id]);
}

export interface UserPage {
  rows: UserRow[];
  total: number;
}

export async function listUsers(
  tx: Queryable,
  options: { page: number; perPage: number; filter: string; ascending: boolean },
): Promise<UserPage> {
  const pattern = `%${options.filter.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = `where u.aud = 'authenticated' and ($1 = '%%' or u.email ilike $1 or u.raw_user_meta_data ->> 'full_name' ilike $1)`;
  const total = await one<{ count: string }>(tx, `select count(*) as count from auth.users u ${where}`, [
    pattern,
  ]);
  const { rows } = await tx.query<UserRow>(
    `${USER_SELECT} ${where} order by u.created_at ${options.ascending ? 'asc' : 'desc'}, u.id limit $2 offset $3`,
    [pattern, options.perPage, (options.page - 1) * options.perPage],
  );
  return { rows, total: Number(total?.count ?? 0) };
}

// ----------------------------------------------------------------------------------------------
// Identities
// ----------------------------------------------------------------------------------------------

export async function insertIdentity(
  tx: Queryable,
  identity: { userId: string; provider: string; providerId: string; data: Record<string, unknown> },
): Promise<void> {
  await tx.query(
    `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values (gen_random_uuid(), $1, $2, $3, $4, now(), now(), now())`,
    [identity.providerId, identity.userId, JSON.stringify(identity.data), identity.provider],
  );
}

export function findIdentity(
  tx: Queryable,
  provider: string,
  providerId: string,
): Promise<{ id: string; user_id: string } | undefined> {
  return one(tx, 'select id, user_id from auth.identities where provider = $1 and provider_id = $2', [
    provider,
    providerId,
  ]);
}

export async function updateIdentityData(
  tx: Queryable,
  userId: string,
  provider: string,
  changes: Record<string, unknown>,
  signedIn = false,
): Promise<void> {
  await tx.query(
    `update auth.identities set identity_data = identity_data || $3::jsonb, updated_at = now()
       ${signedIn ? ', last_sign_in_at = now()' : ''}
     where user_id = $1 and provider = $2`,
    [userId, provider, JSON.stringify(changes)],
  );
}

export async function deleteIdentity(tx: Queryable, userId: string, identityId: string): Promise<boolean> {
  const { rowCount } = await tx.query('delete from auth.identities where user_id = $1 and id = $2', [
    userId,
    identityId,
  ]);
  return rowCount > 0;
}

/** app_metadata.provider/providers follow the user's identities (first one is the provider). */
export async function syncProviders(tx: Queryable, userId: string): Promise<void> {
  await tx.query(
    `update auth.users u set raw_app_meta_data = coalesce(u.raw_app_meta_data, '{}'::jsonb)
       || jsonb_build_object('providers', coalesce(p.providers, '[]'::jsonb))
       || case when p.first is null then '{}'::jsonb else jsonb_build_object('provider', p.first) end
     from (
       select jsonb_agg(distinct i.provider) as providers,
              (select i2.provider from auth.identities i2 where i2.user_id = $1 order by i2.created_at, i2.id limit 1) as first
       from auth.identities i where i.user_id = $1
     ) p
     where u.id = $1`,
    [userId],
  );
}
