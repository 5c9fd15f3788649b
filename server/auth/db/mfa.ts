import type { Queryable } from '../../db/driver.ts';
import { one } from '../../db/sql.ts';
import type { FactorRow } from './users.ts';

/**
 * The auth service's SQL: MFA factors and challenges. Every value is a bind parameter; the service runs as
 * the connecting (owner) role, as GoTrue runs as supabase_auth_admin, so no request scope applies.
 */

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
