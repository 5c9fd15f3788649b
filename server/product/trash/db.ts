import type { Queryable } from '../../db/driver.ts';

/** Every SQL statement of the blob trash (storage.blob_trash, server/storage/migrations/0002_blob_trash.sql). */

export interface TrashEntry {
  aside_key: string;
  original_key: string;
}

export async function recordPendingBlobs(
  tx: Queryable,
  operationId: string,
  entries: TrashEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await tx.query(
    `insert into storage.blob_trash (aside_key, original_key, operation_id, state)
     select a, o, $3::uuid, 'pending' from unnest($1::text[], $2::text[]) as e(a, o)`,
    [entries.map((entry) => entry.aside_key), entries.map((entry) => entry.original_key), operationId],
  );
}

/** Marks the operation's set-aside blobs for purging; answers how many were still pending. */
export async function markForPurge(tx: Queryable, operationId: string): Promise<number> {
  const { rowCount } = await tx.query(
    `update storage.blob_trash set state = 'purge' where operation_id = $1::uuid and state = 'pending'`,
    [operationId],
  );
  return rowCount;
}

/** Blobs to remove that were never set aside (they appeared while the operation ran). */
export async function recordPurgeBlobs(tx: Queryable, operationId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.query(
    `insert into storage.blob_trash (aside_key, original_key, operation_id, state)
     select k, k, $2::uuid, 'purge' from unnest($1::text[]) as k on conflict (aside_key) do nothing`,
    [keys, operationId],
  );
}

export async function trashOfOperation(
  tx: Queryable,
  operationId: string,
): Promise<(TrashEntry & { state: string })[]> {
  const { rows } = await tx.query<TrashEntry & { state: string }>(
    'select aside_key, original_key, state from storage.blob_trash where operation_id = $1::uuid',
    [operationId],
  );
  return rows;
}

/** Operations with entries to finish: all purges, and pending entries older than the lease. */
export async function staleTrashOperations(tx: Queryable, leaseSeconds: number): Promise<string[]> {
  const { rows } = await tx.query<{ operation_id: string }>(
    `select distinct operation_id from storage.blob_trash
     where state = 'purge' or created_at < now() - make_interval(secs => $1)
     limit 1000`,
    [leaseSeconds],
  );
  return rows.map((row) => row.operation_id);
}

/** Which of these blob keys a stored object still uses. */
export async function referencedVersions(tx: Queryable, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await tx.query<{ version: string }>(
    'select distinct version from storage.objects where version = any($1::text[])',
    [keys],
  );
  return new Set(rows.map((row) => row.version));
}

export async function forgetTrash(tx: Queryable, asideKeys: string[]): Promise<void> {
  if (asideKeys.length === 0) return;
  await tx.query('delete from storage.blob_trash where aside_key = any($1::text[])', [asideKeys]);
}
