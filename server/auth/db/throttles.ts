import type { Queryable } from '../../db/driver.ts';
import { one } from '../../db/sql.ts';

/**
 * The auth service's SQL: the sign-in throttles (per account and per known device). Every value is a bind
 * parameter; the service runs as the connecting (owner) role, as GoTrue runs as supabase_auth_admin, so no
 * request scope applies.
 */

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
