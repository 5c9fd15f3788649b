import type { Queryable } from '../db/driver.ts';
import { deleteAuditLogOlderThan } from './db.ts';

/**
 * The auth service's audit log (sign-ins, sign-ups, token and account events, with the client's
 * address) is a security log: kept 12 months, as the privacy policy says (issue 33, decision 194).
 * The product's leased daily job calls this; returns how many entries left.
 */
export async function pruneAuthAuditLog(tx: Queryable, months = 12): Promise<number> {
  return deleteAuditLogOlderThan(tx, months);
}
