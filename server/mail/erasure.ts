import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../db/driver.ts';
import { erasedHashes, forgetOldErasures, insertErasedHashes } from './db.ts';
import { addressHash, forgetOutboxMailByHash, markErasedHashes } from './mailer.ts';

/**
 * Erasure reaches the outbox of every server process (issue 36, decision 173). Each process writes
 * mails without SMTP to its own DATA_DIR/mail; the GDPR deletion records the erased addresses' hashes
 * in `auth.erased_mail` in its transaction (NOTIFY `mail_erased` at commit), and every process with an
 * outbox removes their mails and drops those still on their way: on the notice, after its listening
 * connection was re-opened (a notice may have been lost) and at start (it may have been down).
 */

/** Records erased addresses inside the deletion's transaction; the others hear of it at commit. */
export async function recordErasedMail(tx: Queryable, addresses: readonly string[]): Promise<void> {
  if (addresses.length === 0) return;
  await insertErasedHashes(tx, addresses.map(addressHash));
}

/** Follows erasures for this process's outbox; resolves to a function that stops following. */
export async function followErasedMail(
  db: Database,
  dataDir: string,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = () => {
    sweeping = sweeping.then(async () => {
      try {
        await forgetOldErasures(db);
        const hashes = await erasedHashes(db);
        markErasedHashes(hashes);
        const removed = await forgetOutboxMailByHash(dataDir, hashes);
        if (removed > 0) log.info({ removed }, 'mail: removed the mails of erased accounts from the outbox');
      } catch (error) {
        log.error({ err: error }, 'mail: removing the mails of erased accounts from the outbox failed');
      }
    });
  };
  const unlisten = await db.listen('mail_erased', sweep);
  const stopResets = db.onListenerReset(sweep);
  sweep();
  await sweeping;
  return async () => {
    stopResets();
    await unlisten();
    await sweeping;
  };
}
