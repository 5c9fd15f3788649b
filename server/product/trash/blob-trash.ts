import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/driver.ts';
import type { BlobsForProduct } from '../../functions/platform.ts';
import * as sql from './db.ts';

/**
 * Blobs moved aside so that removing them can be undone (decision 072). A blob is "moved" with the
 * backend's own operations — copy to a fresh key, then remove the original — so the same code works
 * on disk and on S3 (which has no rename). Every move is journalled in storage.blob_trash BEFORE it
 * happens, so that after any failure or crash the journal says what to do with each blob:
 *
 *   pending + a row still uses the original key  → put it back (copy aside → original), drop the copy
 *   pending + no row uses it any more             → the data is gone: drop the copy
 *   purge                                        → the rows are gone for good: drop the copy
 *
 * Every step is idempotent (a missing blob is no error), so finishing an operation twice — by the
 * request and by the sweep of another process — is harmless. No transaction is held open while
 * blobs move: PGlite runs one transaction at a time, and bytes can take long to move.
 */
export class BlobTrash {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobsForProduct,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Moves the blobs aside under the operation. Journals first (committed), then moves. Blobs that do
   * not exist are skipped. On any failure, what was moved is put back before the error is rethrown.
   */
  async setAside(operationId: string, keys: string[]): Promise<sql.TrashEntry[]> {
    const entries = keys.map((key) => ({ original_key: key, aside_key: randomUUID() }));
    await this.db.transaction((tx) => sql.recordPendingBlobs(tx, operationId, entries));
    const moved: sql.TrashEntry[] = [];
    try {
      for (const entry of entries) {
        try {
          await this.blobs.backend.copy(entry.original_key, entry.aside_key);
        } catch (error) {
          if (this.blobs.isMissing(error)) continue; // a row without bytes: nothing to move
          throw error;
        }
        moved.push(entry);
        await this.blobs.backend.remove([entry.original_key]);
      }
    } catch (error) {
      await this.restore(operationId).catch((restoreError) =>
        this.log.error(
          { err: restoreError, operationId },
          'functions: could not put set-aside blobs back yet (the sweep retries)',
        ),
      );
      throw error;
    }
    return moved;
  }

  /**
   * Undoes an operation whose transaction did not commit: blobs still referenced go back to their
   * keys, the copies go, the journal entries go.
   */
  async restore(operationId: string): Promise<void> {
    const entries = await sql.trashOfOperation(this.db, operationId);
    const pending = entries.filter((entry) => entry.state === 'pending');
    const referenced = await sql.referencedVersions(
      this.db,
      pending.map((entry) => entry.original_key),
    );
    for (const entry of pending) {
      if (referenced.has(entry.original_key) && !(await this.blobs.backend.exists(entry.original_key))) {
        try {
          await this.blobs.backend.copy(entry.aside_key, entry.original_key);
        } catch (error) {
          // Neither copy exists: the blob was lost before it was set aside. Nothing to restore.
          if (!this.blobs.isMissing(error)) throw error;
        }
      }
      await this.blobs.backend.remove([entry.aside_key]);
      await sql.forgetTrash(this.db, [entry.aside_key]);
    }
    await this.purge(operationId, entries);
  }

  /** Removes the blobs of a committed operation, then forgets them. */
  async purge(operationId: string, known?: (sql.TrashEntry & { state: string })[]): Promise<void> {
    const entries = (known ?? (await sql.trashOfOperation(this.db, operationId))).filter(
      (entry) => entry.state === 'purge',
    );
    if (entries.length === 0) return;
    const keys = entries.map((entry) => entry.aside_key);
    await this.blobs.backend.remove(keys);
    await sql.forgetTrash(this.db, keys);
  }

  /**
   * Finishes what failed or crashed operations left: every purge, and pending entries older than
   * the lease (an operation still running is younger; see decision 072). Safe to run anywhere, any
   * time, by several processes at once.
   */
  async sweep(leaseSeconds: number): Promise<number> {
    const operations = await sql.staleTrashOperations(this.db, leaseSeconds);
    for (const operationId of operations) {
      try {
        await this.restore(operationId);
      } catch (error) {
        this.log.error(
          { err: error, operationId },
          'functions: could not finish set-aside blobs (retried later)',
        );
      }
    }
    return operations.length;
  }
}
