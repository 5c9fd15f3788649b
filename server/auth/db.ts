import type { Queryable } from '../db/driver.ts';

/**
 * All of the auth service's SQL. Every value is a bind parameter; the service runs as the connecting
 * (owner) role, as GoTrue runs as supabase_auth_admin, so no request scope applies here.
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

const USER_COLUMNS = `
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

const USER_SELECT = `select ${USER_COLUMNS} from auth.users u`;

async function one<T>(tx: Queryable, sql: string, params: unknown[]): Promise<T | undefined> {
  const { rows } = await tx.query<T>(sql, params);
  return rows[0];
}

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

// ----------------------------------------------------------------------------------------------
// Sessions, refresh tokens, AMR claims
// ----------------------------------------------------------------------------------------------

export interface SessionRow {
  id: string;
  user_id: string;
  aal: string | null;
  factor_id: string | null;
  created_at: string;
  not_after: string | null;
}

export function findSession(tx: Queryable, id: string): Promise<SessionRow | undefined> {
  return one<SessionRow>(
    tx,
    'select id, user_id, aal, factor_id, created_at, not_after from auth.sessions where id = $1',
    [id],
  );
}

/** Session, first refresh token and its authentication method, and the user's sign-in time. */
export async function insertSession(
  tx: Queryable,
  session: {
    id: string;
    userId: string;
    tokenHash: string;
    method: string;
    userAgent: string | null;
    ip: string | null;
    provider: string | null;
  },
): Promise<void> {
  await tx.query(
    `with s as (
       insert into auth.sessions (id, user_id, created_at, updated_at, aal, refreshed_at, user_agent, ip)
       values ($1, $2, now(), now(), 'aal1', now() at time zone 'utc', $3, $4) returning id
     ), r as (
       insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
       select $5, $6, $2::text, false, now(), now(), null, id from s
     ), a as (
       insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
       select id, now(), now(), $7, gen_random_uuid() from s
     ), i as (
       update auth.identities set last_sign_in_at = now() where user_id = $2 and provider = $8
     )
     update auth.users set last_sign_in_at = now(), updated_at = now() where id = $2`,
    [
      session.id,
      session.userId,
      session.userAgent,
      session.ip,
      INSTANCE_ID,
      session.tokenHash,
      session.method,
      session.provider,
    ],
  );
}

export interface AmrClaim {
  method: string;
  updated_at: string;
}

export async function amrClaims(tx: Queryable, sessionId: string): Promise<AmrClaim[]> {
  const { rows } = await tx.query<AmrClaim>(
    `select authentication_method as method, updated_at from auth.mfa_amr_claims
     where session_id = $1 order by updated_at desc, authentication_method`,
    [sessionId],
  );
  return rows;
}

export async function addAmrClaim(tx: Queryable, sessionId: string, method: string): Promise<void> {
  await tx.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
     values ($1, now(), now(), $2, gen_random_uuid())
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [sessionId, method],
  );
}

export async function setSessionAal(tx: Queryable, sessionId: string, aal: string, factorId: string | null) {
  await tx.query('update auth.sessions set aal = $2, factor_id = $3, updated_at = now() where id = $1', [
    sessionId,
    aal,
    factorId,
  ]);
}

export interface RefreshTokenRow {
  id: string;
  token: string;
  revoked: boolean;
  session_id: string;
  user_id: string;
  session_expired: boolean;
  seconds_since_update: number;
  /** The session's authentication methods (for the new access token), fetched in the same trip. */
  amr: AmrClaim[];
}

/** The refresh token and its session, both locked, so one session refreshes one at a time. */
export function lockRefreshToken(tx: Queryable, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return one<RefreshTokenRow>(
    tx,
    `select rt.id::text as id, rt.token, coalesce(rt.revoked, false) as revoked, rt.session_id, s.user_id,
       coalesce(s.not_after < now(), false) as session_expired,
       extract(epoch from (now() - rt.updated_at))::float8 as seconds_since_update,
       (select coalesce(json_agg(json_build_object('method', c.authentication_method, 'updated_at', c.updated_at)
                                 order by c.updated_at desc, c.authentication_method), '[]'::json)
        from auth.mfa_amr_claims c where c.session_id = rt.session_id) as amr
     from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id
     where rt.token = $1
     for update of rt, s`,
    [tokenHash],
  );
}

/** Rotation: the presented token is revoked and a child issued, the session marked refreshed. */
export async function rotateRefreshToken(
  tx: Queryable,
  parent: { id: string; token: string; session_id: string; user_id: string },
  childHash: string,
  meta: { userAgent: string | null; ip: string | null },
): Promise<void> {
  await tx.query(
    `with revoked_parent as (
       update auth.refresh_tokens set revoked = true, updated_at = case when revoked then updated_at else now() end
       where id = $1::bigint
     ), child as (
       insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
       values ($2, $3, $4, false, now(), now(), $5, $6)
     )
     update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now(), user_agent = $7, ip = $8
     where id = $6`,
    [
      parent.id,
      INSTANCE_ID,
      childHash,
      parent.user_id,
      parent.token,
      parent.session_id,
      meta.userAgent,
      meta.ip,
    ],
  );
}

/** The newest live refresh token of a session (MFA verification rotates it). */
export function currentRefreshToken(
  tx: Queryable,
  sessionId: string,
): Promise<{ id: string; token: string; session_id: string; user_id: string } | undefined> {
  return one(
    tx,
    `select id::text as id, token, session_id, user_id from auth.refresh_tokens
     where session_id = $1 and not coalesce(revoked, false) order by id desc limit 1 for update`,
    [sessionId],
  );
}

export async function deleteSession(tx: Queryable, sessionId: string): Promise<void> {
  await tx.query('delete from auth.sessions where id = $1', [sessionId]);
}

export async function deleteSessionsOfUser(tx: Queryable, userId: string, exceptSessionId?: string) {
  await tx.query('delete from auth.sessions where user_id = $1 and ($2::uuid is null or id <> $2::uuid)', [
    userId,
    exceptSessionId ?? null,
  ]);
}

// ----------------------------------------------------------------------------------------------
// One-time tokens (emailed links and codes)
// ----------------------------------------------------------------------------------------------

export type OneTimeTokenType =
  | 'confirmation_token'
  | 'reauthentication_token'
  | 'recovery_token'
  | 'email_change_token_new'
  | 'email_change_token_current';

/** One live token per user and type: issuing a new one replaces the previous. */
export async function putOneTimeToken(
  tx: Queryable,
  userId: string,
  type: OneTimeTokenType,
  digest: string,
  relatesTo: string,
  mailed: boolean,
): Promise<void> {
  await tx.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at, mailed)
     values (gen_random_uuid(), $1, $2, $3, $4, now() at time zone 'utc', now() at time zone 'utc', $5)
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash,
       relates_to = excluded.relates_to, created_at = excluded.created_at, updated_at = excluded.updated_at,
       mailed = excluded.mailed`,
    [userId, type, digest, relatesTo, mailed],
  );
}

export interface ConsumedToken {
  user_id: string;
  token_type: OneTimeTokenType;
  relates_to: string;
  fresh: boolean;
  /** The server mailed it to `relates_to` (not handed out by admin/generate_link). */
  mailed: boolean;
}

/**
 * Takes (deletes) the token whose digest is one of `digests`: whoever deletes it first used it, so a
 * token works once even under concurrent requests. `fresh` tells whether it was still within
 * `maxAgeSeconds`.
 */
export function takeOneTimeToken(
  tx: Queryable,
  digests: string[],
  types: OneTimeTokenType[],
  maxAgeSeconds: number,
): Promise<ConsumedToken | undefined> {
  return one<ConsumedToken>(
    tx,
    `delete from auth.one_time_tokens
     where id = (select id from auth.one_time_tokens where token_hash = any($1::text[])
                 and token_type::text = any($2::text[]) order by created_at desc limit 1 for update)
     returning user_id, token_type::text as token_type, relates_to, mailed,
       created_at >= (now() at time zone 'utc') - make_interval(secs => $3) as fresh`,
    [digests, types, maxAgeSeconds],
  );
}

export function findOneTimeToken(
  tx: Queryable,
  userId: string,
  type: OneTimeTokenType,
): Promise<{ token_hash: string; relates_to: string } | undefined> {
  return one(
    tx,
    'select token_hash, relates_to from auth.one_time_tokens where user_id = $1 and token_type = $2',
    [userId, type],
  );
}

export async function deleteOneTimeTokens(tx: Queryable, userId: string, types?: OneTimeTokenType[]) {
  await tx.query(
    'delete from auth.one_time_tokens where user_id = $1 and ($2::text[] is null or token_type::text = any($2::text[]))',
    [userId, types ?? null],
  );
}

// ----------------------------------------------------------------------------------------------
// PKCE flow state
// ----------------------------------------------------------------------------------------------

export async function insertFlowState(
  tx: Queryable,
  flow: {
    id: string;
    userId: string | null;
    authCode: string;
    challenge: string;
    method: 's256' | 'plain';
    providerType: string;
    authenticationMethod: string;
  },
): Promise<void> {
  await tx.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       created_at, updated_at, authentication_method)
     values ($1, $2, $3, $4, $5, $6, now(), now(), $7)`,
    [
      flow.id,
      flow.userId,
      flow.authCode,
      flow.method,
      flow.challenge,
      flow.providerType,
      flow.authenticationMethod,
    ],
  );
}

/** Hands out the auth code of the user's newest flow of this kind (the emailed link was opened). */
export function issueAuthCode(
  tx: Queryable,
  userId: string,
  authenticationMethod: string,
): Promise<{ auth_code: string } | undefined> {
  return one(
    tx,
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
     where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                 order by created_at desc limit 1)
     returning auth_code`,
    [userId, authenticationMethod],
  );
}

export async function completeFlowState(
  tx: Queryable,
  id: string,
  userId: string,
  provider?: { accessToken: string | null; refreshToken: string | null },
): Promise<{ auth_code: string } | undefined> {
  return one(
    tx,
    `update auth.flow_state set user_id = $2, auth_code_issued_at = now(), updated_at = now(),
       provider_access_token = $3, provider_refresh_token = $4
     where id = $1 returning auth_code`,
    [id, userId, provider?.accessToken ?? null, provider?.refreshToken ?? null],
  );
}

export interface FlowStateRow {
  id: string;
  user_id: string | null;
  code_challenge: string;
  code_challenge_method: 's256' | 'plain';
  authentication_method: string;
  provider_type: string;
  provider_access_token: string | null;
  provider_refresh_token: string | null;
  expired: boolean;
}

/** Takes the flow for an auth code (single use: deleted in the same transaction). */
export function takeFlowState(
  tx: Queryable,
  authCode: string,
  expirySeconds: number,
): Promise<FlowStateRow | undefined> {
  return one<FlowStateRow>(
    tx,
    `delete from auth.flow_state where auth_code = $1
     returning id, user_id, code_challenge, code_challenge_method::text as code_challenge_method,
       authentication_method, provider_type, provider_access_token, provider_refresh_token,
       coalesce(auth_code_issued_at, created_at) < now() - make_interval(secs => $2) as expired`,
    [authCode, expirySeconds],
  );
}

// ----------------------------------------------------------------------------------------------
// OAuth state towards the social provider
// ----------------------------------------------------------------------------------------------

export async function insertOAuthClientState(
  tx: Queryable,
  state: { id: string; provider: string; codeVerifier: string; nonce: string },
): Promise<void> {
  await tx.query(
    'insert into auth.oauth_client_states (id, provider_type, code_verifier, nonce, created_at) values ($1, $2, $3, $4, now())',
    [state.id, state.provider, state.codeVerifier, state.nonce],
  );
}

export function takeOAuthClientState(
  tx: Queryable,
  id: string,
  maxAgeSeconds: number,
): Promise<{ provider_type: string; code_verifier: string; nonce: string; fresh: boolean } | undefined> {
  return one(
    tx,
    `delete from auth.oauth_client_states where id = $1
     returning provider_type, code_verifier, nonce, created_at >= now() - make_interval(secs => $2) as fresh`,
    [id, maxAgeSeconds],
  );
}

// ----------------------------------------------------------------------------------------------
// MFA
// ----------------------------------------------------------------------------------------------

export interface FactorSecretRow extends FactorRow {
  user_id: string;
  secret: string | null;
  last_totp_step: string | null;
  web_authn_credential: Record<string, unknown> | null;
}

export async function insertFactor(
  tx: Queryable,
  factor: { id: string; userId: string; friendlyName: string; type: string; secret: string | null },
): Promise<void> {
  await tx.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
     values ($1, $2, $3, $4, 'unverified', now(), now(), $5)`,
    [factor.id, factor.userId, factor.friendlyName, factor.type, factor.secret],
  );
}

const FACTOR_COLUMNS = `id, user_id, friendly_name, factor_type::text as factor_type, status::text as status, created_at,
  updated_at, last_challenged_at, phone, secret, last_totp_step::text as last_totp_step, web_authn_credential`;

export function findFactor(
  tx: Queryable,
  userId: string,
  factorId: string,
  forUpdate = false,
): Promise<FactorSecretRow | undefined> {
  return one<FactorSecretRow>(
    tx,
    `select ${FACTOR_COLUMNS} from auth.mfa_factors where id = $1 and user_id = $2${forUpdate ? ' for update' : ''}`,
    [factorId, userId],
  );
}

export async function factorCounts(
  tx: Queryable,
  userId: string,
): Promise<{ total: number; verified: number }> {
  const row = await one<{ total: number; verified: number }>(
    tx,
    `select count(*)::int as total, count(*) filter (where status = 'verified')::int as verified
     from auth.mfa_factors where user_id = $1`,
    [userId],
  );
  return row ?? { total: 0, verified: 0 };
}

export async function deleteFactor(tx: Queryable, userId: string, factorId: string): Promise<boolean> {
  const { rowCount } = await tx.query('delete from auth.mfa_factors where id = $1 and user_id = $2', [
    factorId,
    userId,
  ]);
  return rowCount > 0;
}

/** Sessions raised to aal2 by a factor that is being removed fall back to aal1. */
export async function downgradeSessionsOfFactor(tx: Queryable, factorId: string): Promise<void> {
  await tx.query(
    `with s as (
       update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where factor_id = $1 returning id
     )
     delete from auth.mfa_amr_claims c using s
     where c.session_id = s.id and c.authentication_method in ('totp', 'mfa/totp', 'mfa/phone', 'mfa/webauthn')`,
    [factorId],
  );
}

export async function markFactorVerified(tx: Queryable, factorId: string, step: number): Promise<void> {
  await tx.query(
    `update auth.mfa_factors set status = 'verified', last_totp_step = $2, updated_at = now() where id = $1`,
    [factorId, step],
  );
}

/** A WebAuthn factor's credential (public data only) once its registration is verified. */
export async function saveWebAuthnCredential(
  tx: Queryable,
  factorId: string,
  credential: Record<string, unknown>,
  aaguid: string | null,
  verify: boolean,
): Promise<void> {
  await tx.query(
    `update auth.mfa_factors set web_authn_credential = $2, web_authn_aaguid = $3,
       status = case when $4 then 'verified'::auth.factor_status else status end, updated_at = now()
     where id = $1`,
    [factorId, JSON.stringify(credential), aaguid, verify],
  );
}

/** The credentials of the user's verified WebAuthn factors (to exclude them from a new registration). */
export async function webAuthnCredentialsOfUser(
  tx: Queryable,
  userId: string,
): Promise<{ id: string; transports?: string[] }[]> {
  const { rows } = await tx.query<{ credential: { id: string; transports?: string[] } }>(
    `select web_authn_credential as credential from auth.mfa_factors
     where user_id = $1 and factor_type = 'webauthn' and status = 'verified' and web_authn_credential is not null`,
    [userId],
  );
  return rows.map((row) => row.credential);
}

/** GoTrue's DeleteUnverifiedFactors: a verified WebAuthn factor removes the user's other unverified ones. */
export async function deleteUnverifiedFactors(tx: Queryable, userId: string, type: string): Promise<void> {
  await tx.query(
    `delete from auth.mfa_factors where user_id = $1 and factor_type = $2::auth.factor_type and status = 'unverified'`,
    [userId, type],
  );
}

export async function insertChallenge(
  tx: Queryable,
  id: string,
  factorId: string,
  ip: string,
  webAuthnSessionData: Record<string, unknown> | null = null,
): Promise<string> {
  await tx.query(
    `with c as (
       insert into auth.mfa_challenges (id, factor_id, created_at, ip_address, web_authn_session_data)
       values ($1, $2, now(), $3, $4)
     )
     update auth.mfa_factors set last_challenged_at = now() where id = $2`,
    [id, factorId, ip, webAuthnSessionData === null ? null : JSON.stringify(webAuthnSessionData)],
  );
  const row = await one<{ created_at: string }>(
    tx,
    'select created_at from auth.mfa_challenges where id = $1',
    [id],
  );
  return row?.created_at ?? '';
}

export function findChallenge(
  tx: Queryable,
  factorId: string,
  challengeId: string,
  expirySeconds: number,
): Promise<
  | {
      id: string;
      ip_address: string;
      verified_at: string | null;
      expired: boolean;
      web_authn_session_data: Record<string, unknown> | null;
    }
  | undefined
> {
  return one(
    tx,
    `select id, host(ip_address) as ip_address, verified_at, web_authn_session_data,
       created_at < now() - make_interval(secs => $3) as expired
     from auth.mfa_challenges where id = $1 and factor_id = $2 for update`,
    [challengeId, factorId, expirySeconds],
  );
}

export async function deleteChallenge(tx: Queryable, challengeId: string): Promise<void> {
  await tx.query('delete from auth.mfa_challenges where id = $1', [challengeId]);
}

// ----------------------------------------------------------------------------------------------
// Audit log, rate limits, admin bootstrap, housekeeping
// ----------------------------------------------------------------------------------------------

export async function insertAuditEntry(
  tx: Queryable,
  payload: Record<string, unknown>,
  ip: string,
): Promise<void> {
  await tx.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
     values ($1, gen_random_uuid(), $2, now(), $3)`,
    [INSTANCE_ID, JSON.stringify(payload), ip.slice(0, 64)],
  );
}

/**
 * Counts `amount` hits in the key's fixed window; returns the count so far and seconds until it resets.
 * A window starts with its first hit and never moves: later hits, refused or not, do not extend it.
 */
export async function hitRateLimit(
  tx: Queryable,
  key: string,
  windowSeconds: number,
  amount = 1,
): Promise<{ count: number; reset_in: number }> {
  const row = await one<{ count: number; reset_in: number }>(
    tx,
    `insert into auth.rate_limits as r (key, window_start, count) values ($1, now(), $3)
     on conflict (key) do update set
       count = case when r.window_start <= now() - make_interval(secs => $2) then $3 else r.count + $3 end,
       window_start = case when r.window_start <= now() - make_interval(secs => $2) then now() else r.window_start end
     returning count, greatest(1, ceil(extract(epoch from (window_start + make_interval(secs => $2) - now()))))::int as reset_in`,
    [key, windowSeconds, amount],
  );
  return row ?? { count: amount, reset_in: windowSeconds };
}

// ----------------------------------------------------------------------------------------------
// Sign-in throttles (per account and per known device)
// ----------------------------------------------------------------------------------------------

export interface ThrottleRow {
  failures: number;
  /** Seconds until the lock ends; 0 when not locked. */
  locked_for: number;
}

export async function readThrottle(tx: Queryable, key: string): Promise<ThrottleRow | undefined> {
  return one<ThrottleRow>(
    tx,
    `select failures,
       greatest(0, ceil(extract(epoch from (coalesce(locked_until, now()) - now()))))::int as locked_for
     from auth.sign_in_throttles where key = $1`,
    [key],
  );
}

/**
 * One more failure for `key`. Failures older than `forgetAfterSeconds` are forgotten first. Past
 * `freeFailures`, the key is locked for `delaySeconds`, doubled per further failure, at most
 * `maxDelaySeconds`. Returns the failures counted so far.
 */
export async function recordThrottleFailure(
  tx: Queryable,
  key: string,
  accountKey: string,
  policy: { freeFailures: number; delaySeconds: number; maxDelaySeconds: number; forgetAfterSeconds: number },
): Promise<number> {
  const row = await one<{ failures: number }>(
    tx,
    `with next as (
       select coalesce((select t.failures from auth.sign_in_throttles t
                        where t.key = $1 and t.updated_at > now() - make_interval(secs => $6)), 0) + 1 as failures
     )
     insert into auth.sign_in_throttles as t (key, account_key, failures, locked_until, updated_at)
     select $1, $2, n.failures,
       case when n.failures > $3 then now() + make_interval(secs =>
         least($5::float8, $4::float8 * power(2::float8, least(n.failures - $3 - 1, 30)))) end,
       now()
     from next n
     on conflict (key) do update set failures = excluded.failures, locked_until = excluded.locked_until,
       updated_at = excluded.updated_at
     returning failures`,
    [
      key,
      accountKey,
      policy.freeFailures,
      policy.delaySeconds,
      policy.maxDelaySeconds,
      policy.forgetAfterSeconds,
    ],
  );
  return row?.failures ?? 1;
}

export async function clearThrottles(tx: Queryable, keys: string[]): Promise<void> {
  await tx.query('delete from auth.sign_in_throttles where key = any($1::text[])', [keys]);
}

/** Every throttle row of an account (its own and its devices'): the account is being erased. */
export async function deleteThrottlesOfAccount(tx: Queryable, accountKeys: string[]): Promise<void> {
  await tx.query('delete from auth.sign_in_throttles where account_key = any($1::text[])', [accountKeys]);
}

/** The mail counters of these addresses (keys `mail:<kind>:<address key>`). */
export async function deleteMailLimitsOfAddresses(tx: Queryable, addressKeys: string[]): Promise<void> {
  await tx.query(
    `delete from auth.rate_limits
     where key like 'mail:%' and split_part(key, ':', 3) = any($1::text[])`,
    [addressKeys],
  );
}

/**
 * The audit log forgets a person (decision 097): their own entries (actor_id, with their client
 * addresses) are deleted; entries by someone else about them (an administrator's invitation or edit)
 * stay as a record of what that person did, without the user id, email or phone in their traits.
 */
export async function eraseAuditTrail(tx: Queryable, userId: string): Promise<void> {
  await tx.query(`delete from auth.audit_log_entries a where a.payload ->> 'actor_id' = ($1::uuid)::text`, [
    userId,
  ]);
  await tx.query(
    `update auth.audit_log_entries a
     set payload = jsonb_set(a.payload::jsonb, '{traits}',
       (a.payload::jsonb -> 'traits') - 'user_id' - 'user_email' - 'user_phone')::json
     where (a.payload -> 'traits') ->> 'user_id' = ($1::uuid)::text`,
    [userId],
  );
}

/**
 * Product §admin-bootstrap: the support account is an administrator; a second grant of the role is ignored.
 */
export async function grantAdminRole(tx: Queryable, userId: string): Promise<void> {
  await tx.query(
    "insert into public.user_roles (user_id, role) values ($1, 'admin') on conflict (user_id, role) do nothing",
    [userId],
  );
}

export async function revokeAdminRole(tx: Queryable, userId: string): Promise<boolean> {
  const { rowCount } = await tx.query("delete from public.user_roles where user_id = $1 and role = 'admin'", [
    userId,
  ]);
  return rowCount > 0;
}

export async function hasAdminRole(tx: Queryable, userId: string): Promise<boolean> {
  const row = await one<{ admin: boolean }>(
    tx,
    "select exists (select 1 from public.user_roles where user_id = $1 and role = 'admin') as admin",
    [userId],
  );
  return row?.admin === true;
}

export interface AdminRow {
  id: string;
  email: string | null;
  granted_at: string;
}

export async function listAdmins(tx: Queryable): Promise<AdminRow[]> {
  const { rows } = await tx.query<AdminRow>(
    `select u.id, u.email, r.created_at::text as granted_at
     from public.user_roles r join auth.users u on u.id = r.user_id
     where r.role = 'admin' order by r.created_at, u.email`,
  );
  return rows;
}

/** Whether an operator turned the automatic bootstrap off for this address. */
export async function bootstrapRevoked(tx: Queryable, email: string): Promise<boolean> {
  const row = await one<{ revoked: boolean }>(
    tx,
    'select exists (select 1 from auth.admin_bootstrap_revocations where email = lower($1)) as revoked',
    [email],
  );
  return row?.revoked === true;
}

export async function setBootstrapRevoked(tx: Queryable, email: string, revoked: boolean): Promise<void> {
  if (revoked) {
    await tx.query(
      'insert into auth.admin_bootstrap_revocations (email) values (lower($1)) on conflict (email) do nothing',
      [email],
    );
  } else {
    await tx.query('delete from auth.admin_bootstrap_revocations where email = lower($1)', [email]);
  }
}

/**
 * The account keeps only what the mailbox owner controls (the admin bootstrap, decision 093): its
 * password, sessions, identities other than the email one, and MFA factors go.
 */
export async function resetSignInMethods(tx: Queryable, userId: string): Promise<void> {
  await tx.query(`update auth.users set encrypted_password = '', updated_at = now() where id = $1`, [userId]);
  await tx.query('delete from auth.sessions where user_id = $1', [userId]);
  await tx.query(`delete from auth.identities where user_id = $1 and provider <> 'email'`, [userId]);
  await tx.query('delete from auth.mfa_factors where user_id = $1', [userId]);
}

/** Drops what can no longer be used: stale counters, expired flows, challenges and states. */
export async function removeExpired(tx: Queryable, maxAgeSeconds: number): Promise<void> {
  await tx.query('delete from auth.rate_limits where window_start < now() - make_interval(secs => $1)', [
    maxAgeSeconds,
  ]);
  await tx.query('delete from auth.flow_state where created_at < now() - make_interval(secs => $1)', [
    maxAgeSeconds,
  ]);
  await tx.query('delete from auth.webauthn_challenges where expires_at < now()');
  await tx.query('delete from auth.mfa_challenges where created_at < now() - make_interval(secs => $1)', [
    maxAgeSeconds,
  ]);
  await tx.query(
    'delete from auth.oauth_client_states where created_at < now() - make_interval(secs => $1)',
    [maxAgeSeconds],
  );
  await tx.query(
    `delete from auth.one_time_tokens where created_at < (now() at time zone 'utc') - make_interval(secs => $1)`,
    [maxAgeSeconds],
  );
  await tx.query(
    `delete from auth.sign_in_throttles
     where updated_at < now() - make_interval(secs => $1) and coalesce(locked_until, now()) <= now()`,
    [maxAgeSeconds],
  );
}

// ----------------------------------------------------------------------------------------------
// Passkeys (auth.webauthn_credentials, auth.webauthn_challenges; decision 149)
// ----------------------------------------------------------------------------------------------

export interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  sign_count: string;
  transports: string[];
  friendly_name: string;
  created_at: string;
  last_used_at: string | null;
}

const PASSKEY_COLUMNS = `id, user_id, encode(credential_id, 'base64') as credential_id,
  encode(public_key, 'base64') as public_key, sign_count::text as sign_count, transports, friendly_name,
  created_at, last_used_at`;

export async function passkeysOfUser(tx: Queryable, userId: string): Promise<PasskeyRow[]> {
  const { rows } = await tx.query<PasskeyRow>(
    `select ${PASSKEY_COLUMNS} from auth.webauthn_credentials where user_id = $1 order by created_at, id`,
    [userId],
  );
  return rows;
}

export function findPasskeyByCredentialId(
  tx: Queryable,
  credentialId: Buffer,
): Promise<PasskeyRow | undefined> {
  return one<PasskeyRow>(
    tx,
    `select ${PASSKEY_COLUMNS} from auth.webauthn_credentials where credential_id = $1 for update`,
    [credentialId],
  );
}

export function findPasskey(tx: Queryable, userId: string, id: string): Promise<PasskeyRow | undefined> {
  return one<PasskeyRow>(
    tx,
    `select ${PASSKEY_COLUMNS} from auth.webauthn_credentials where id = $1 and user_id = $2 for update`,
    [id, userId],
  );
}

export async function insertPasskey(
  tx: Queryable,
  passkey: {
    userId: string;
    credentialId: Buffer;
    publicKey: Buffer;
    aaguid: string | null;
    signCount: number;
    transports: string[];
    backupEligible: boolean;
    backedUp: boolean;
    friendlyName: string;
  },
): Promise<PasskeyRow> {
  const row = await one<PasskeyRow>(
    tx,
    `insert into auth.webauthn_credentials (user_id, credential_id, public_key, attestation_type, aaguid,
       sign_count, transports, backup_eligible, backed_up, friendly_name)
     values ($1, $2, $3, 'none', $4, $5, $6, $7, $8, $9)
     returning ${PASSKEY_COLUMNS}`,
    [
      passkey.userId,
      passkey.credentialId,
      passkey.publicKey,
      passkey.aaguid,
      passkey.signCount,
      JSON.stringify(passkey.transports),
      passkey.backupEligible,
      passkey.backedUp,
      passkey.friendlyName,
    ],
  );
  return row as PasskeyRow;
}

export async function passkeyUsed(tx: Queryable, id: string, signCount: number): Promise<void> {
  await tx.query(
    'update auth.webauthn_credentials set sign_count = $2, last_used_at = now(), updated_at = now() where id = $1',
    [id, signCount],
  );
}

export async function renamePasskey(tx: Queryable, id: string, name: string): Promise<PasskeyRow> {
  return (await one<PasskeyRow>(
    tx,
    `update auth.webauthn_credentials set friendly_name = $2, updated_at = now() where id = $1
     returning ${PASSKEY_COLUMNS}`,
    [id, name],
  )) as PasskeyRow;
}

export async function deletePasskey(tx: Queryable, id: string): Promise<void> {
  await tx.query('delete from auth.webauthn_credentials where id = $1', [id]);
}

export async function insertWebAuthnChallenge(
  tx: Queryable,
  challenge: {
    userId: string | null;
    type: 'registration' | 'authentication';
    sessionData: Record<string, unknown>;
    expirySeconds: number;
  },
): Promise<{ id: string; expires_at: string }> {
  return (await one<{ id: string; expires_at: string }>(
    tx,
    `insert into auth.webauthn_challenges (user_id, challenge_type, session_data, expires_at)
     values ($1, $2, $3, now() + make_interval(secs => $4)) returning id, expires_at`,
    [challenge.userId, challenge.type, JSON.stringify(challenge.sessionData), challenge.expirySeconds],
  )) as { id: string; expires_at: string };
}

/** Takes (deletes and returns) a challenge of this type and user: each is answered at most once. */
export function takeWebAuthnChallenge(
  tx: Queryable,
  id: string,
  type: 'registration' | 'authentication',
  userId: string | null,
): Promise<{ session_data: Record<string, unknown>; expired: boolean } | undefined> {
  return one(
    tx,
    `delete from auth.webauthn_challenges
     where id = $1 and challenge_type = $2 and user_id is not distinct from $3
     returning session_data, expires_at <= now() as expired`,
    [id, type, userId],
  );
}
