import type { Queryable } from '../db/driver.ts';
import { deleteMailLimitsOfAddresses, deleteThrottlesOfAccount, eraseAuditTrail } from './db.ts';
import { addressKey } from './rate-limit.ts';
import { accountKey } from './sign-in-throttle.ts';

/**
 * What the auth service holds about a person outside the rows that cascade with `auth.users`, erased
 * in the deleting transaction (decision 097): their entries in the audit log (with their user id and
 * client addresses) go, entries of administrators about them lose every trace of them, and the
 * rate-limit and sign-in-throttle rows keyed by their addresses go too. `emails` are the account's
 * address and a pending new one.
 */
export async function eraseAuthTraces(
  tx: Queryable,
  secret: string,
  person: { userId: string; emails: string[] },
): Promise<void> {
  const emails = [...new Set(person.emails.map((email) => email.toLowerCase()))];
  await eraseAuditTrail(tx, person.userId);
  await deleteMailLimitsOfAddresses(
    tx,
    emails.map((email) => addressKey(secret, email)),
  );
  await deleteThrottlesOfAccount(
    tx,
    emails.map((email) => accountKey(secret, email)),
  );
}
