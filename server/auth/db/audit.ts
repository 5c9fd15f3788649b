import type { Queryable } from '../../db/driver.ts';
import { one } from '../../db/sql.ts';
import { INSTANCE_ID } from './users.ts';

/**
 * The auth service's SQL: the audit log, rate limits, the admin bootstrap and housekeeping. Every value is
 * a bind parameter; the service runs as the connecting (owner) role, as GoTrue runs as
 * supabase_auth_admin, so no request scope applies.
 */

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

/** Deletes audit log entries older than `months` (retention.ts); returns how many. */
export async function deleteAuditLogOlderThan(tx: Queryable, months: number): Promise<number> {
  const result = await tx.query(
    `delete from auth.audit_log_entries where created_at < now() - make_interval(months => $1::integer)`,
    [months],
  );
  return result.rowCount;
}
