import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/driver.ts';
import type { AuthForProduct } from '../../functions/platform.ts';
import { type PaymentsDeps, stopBillingBeforeDeletion } from '../payments/payments.ts';
import { type DeletionDeps, deleteAccount } from './account-deletion.ts';
import { inactiveAccountsDue, pruneSecurityEvents, warnInactiveMembers } from './db.ts';

/**
 * What the privacy policy promises about time: inactive accounts warned, then erased (decision 192);
 * security logs older than 12 months deleted (decision 194).
 */
export interface RetentionDeps {
  eraseInactive(): Promise<InactivityRun>;
  pruneSecurityLogs(): Promise<{ events: number; auth: number }>;
}

export interface InactivityDeps {
  db: Database;
  deletion: DeletionDeps;
  payments: PaymentsDeps;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

export interface InactivityRun {
  warned: number;
  erased: number;
  failed: number;
}

/**
 * "Delete my account when inactive" (product §privacy, issue 33, decision 192): members inactive for
 * their chosen period less 14 days are warned (notification and mail, once per stretch of inactivity);
 * those warned 14 days ago or more who have not come back are erased exactly as a self-service
 * deletion erases them (gdpr-data-deletion: billing stopped first, then the all-or-nothing erasure).
 * One account failing (its payment provider unreachable) leaves it for the next day's run.
 */
export async function runInactivityDeletion(deps: InactivityDeps): Promise<InactivityRun> {
  const warned = await warnInactiveMembers(deps.db);
  let erased = 0;
  let failed = 0;
  for (const userId of await inactiveAccountsDue(deps.db)) {
    try {
      await stopBillingBeforeDeletion(deps.payments, userId);
      await deleteAccount(deps.deletion, userId);
      erased += 1;
    } catch (error) {
      failed += 1;
      deps.log.warn({ err: error }, 'functions: erasing an inactive account failed (tried again tomorrow)');
    }
  }
  if (warned + erased > 0) deps.log.info({ warned, erased }, 'functions: inactive accounts');
  return { warned, erased, failed };
}

/**
 * Security logs older than 12 months go (the privacy policy's retention, decision 194): the product's
 * security events and the auth service's audit log.
 */
export async function pruneSecurityLogs(
  db: Database,
  authService: AuthForProduct,
): Promise<{ events: number; auth: number }> {
  const events = await pruneSecurityEvents(db);
  const auth = await authService.pruneAuditLog(db, 12);
  return { events, auth };
}
