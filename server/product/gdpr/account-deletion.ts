import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/driver.ts';
import { FunctionErrors } from '../../functions/errors.ts';
import type { AuthForProduct } from '../../functions/platform.ts';
import { recordErasedMail } from '../../mail/erasure.ts';
import { forgetOutboxMail, markErased } from '../../mail/mailer.ts';
import type { BlobTrash } from '../trash/blob-trash.ts';
import * as trashSql from '../trash/db.ts';
import * as sql from './db.ts';

/** The product's avatar bucket: everything under `{userId}/` there is the user's (product §buckets). */
export const USER_FOLDER_BUCKET = 'user-uploads';

export interface DeletionDeps {
  db: Database;
  trash: BlobTrash;
  log: FastifyBaseLogger;
  /** The auth service's part: it removes what it keeps of the person (decision 185). */
  auth: AuthForProduct;
  /** DATA_DIR, when mail goes to the outbox there rather than to an SMTP server. */
  outboxDataDir: string | undefined;
}

export interface DeletionResult {
  objects: number;
  blobs: number;
}

/** Thrown inside the transaction when the account vanished meanwhile (a concurrent deletion). */
class AccountGone extends Error {}

/**
 * GDPR erasure of the caller's account, all or nothing (decision 072):
 *
 *   1. set the user's blobs aside (journalled, reversible)
 *   2. one transaction: lock the account, delete it and everything hanging off it, erase its traces
 *      (auth's audit log, rate-limit and throttle rows, realtime's change log; decision 097), rewrite
 *      the product's audit entries about them under a pseudonym and drop broadcasts naming them
 *      (decision 185), write the deletion's audit entry, turn the journal's entries into purges — commit
 *   3. remove the set-aside blobs (a failure here is retried by the sweep: the data is already gone
 *      for every reader, and the purge cannot be refused the way the move could have been), and
 *      the person's mails in the local outbox
 *
 * Any failure in 1 or 2 puts the blobs back and leaves every row as it was.
 */
export async function deleteAccount(deps: DeletionDeps, userId: string): Promise<DeletionResult> {
  const { db, trash, log } = deps;
  const operationId = randomUUID();
  const blobs = await sql.listUserBlobs(db, userId, USER_FOLDER_BUCKET);
  const keys = [...new Set(blobs.map((blob) => blob.version))];

  let moved: trashSql.TrashEntry[];
  try {
    moved = await trash.setAside(operationId, keys);
  } catch (error) {
    throw FunctionErrors.deletionFailed(error);
  }

  let result: DeletionResult;
  let emails: string[] = [];
  try {
    result = await db.transaction(async (tx) => {
      const account = await sql.lockAccount(tx, userId);
      if (account === undefined) throw new AccountGone();
      emails = [account.email, account.pendingEmail].filter((email): email is string => Boolean(email));
      const names = await sql.namesOfAccount(tx, userId);
      const deleted = await sql.deleteAccountRows(tx, userId, emails, USER_FOLDER_BUCKET);
      await deps.auth.eraseTraces(tx, { userId, emails });
      // Every process's outbox forgets their mails (decision 173), told at commit.
      if (deps.outboxDataDir !== undefined) await recordErasedMail(tx, emails);
      await sql.forgetRealtimeChanges(tx, userId);
      await sql.eraseMemberTraces(tx, userId, names);
      const marked = await trashSql.markForPurge(tx, operationId);
      if (marked !== keys.length) {
        // The journal changed under us (a sweep took this operation for a crashed one): do not commit
        // a deletion whose blobs may have been put back.
        throw new Error(
          `blob journal of operation ${operationId}: ${marked} of ${keys.length} entries pending`,
        );
      }
      // Objects written between step 1 and the lock above were never set aside: purge them directly.
      const setAside = new Set(keys);
      await trashSql.recordPurgeBlobs(
        tx,
        operationId,
        deleted.versions.filter((version) => !setAside.has(version)),
      );
      await sql.insertDeletionAudit(tx, { via: 'gdpr-data-deletion', objects_removed: deleted.objects });
      return { objects: deleted.objects, blobs: deleted.versions.length };
    });
  } catch (error) {
    await trash
      .restore(operationId)
      .catch((restoreError) =>
        log.error({ err: restoreError, operationId }, 'functions: could not put set-aside blobs back yet'),
      );
    if (error instanceof AccountGone) throw FunctionErrors.accountNotFound();
    throw FunctionErrors.deletionFailed(error);
  }

  try {
    await trash.purge(operationId);
  } catch (error) {
    log.error(
      { err: error, operationId, blobs: moved.length },
      'functions: account deleted; removing its set-aside blobs failed (the sweep retries)',
    );
  }
  if (deps.outboxDataDir !== undefined) {
    // Mails written to the local outbox (no SMTP server): theirs hold their address and links. Mails
    // still on their way in this process are dropped or removed by the outbox itself (markErased).
    markErased(emails);
    await forgetOutboxMail(deps.outboxDataDir, emails).catch((error) =>
      log.error({ err: error }, 'functions: account deleted; removing its mails from the outbox failed'),
    );
  }
  return result;
}
