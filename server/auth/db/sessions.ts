import type { Queryable } from '../../db/driver.ts';
import { one } from '../../db/sql.ts';
import { INSTANCE_ID } from './users.ts';

/**
 * The auth service's SQL: sessions, refresh tokens and AMR claims. Every value is a bind parameter; the
 * service runs as the connecting (owner) role, as GoTrue runs as supabase_auth_admin, so no request scope
 * applies.
 */

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
