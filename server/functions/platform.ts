import { eraseAuthTraces } from '../auth/erasure.ts';
import { pruneAuthAuditLog } from '../auth/retention.ts';
import type { Queryable } from '../db/driver.ts';
import { BlobNotFound, type StorageBackend } from '../storage/backends/backend.ts';

/**
 * What the platform's services lend the product areas (`server/product/*`, decisions 231 and 243): the
 * interfaces product code is written against, and the one place their implementations are bound. The
 * functions service binds them (`productPlatform`, in functions.ts) and hands them to product code in
 * its deps; product code imports this file for types only, and no other file of a service but the
 * functions service's own kit (`functions/http.ts`, `functions/errors.ts`). `server/structure.test.ts`
 * enforces both.
 */

/** The auth service's part in erasing a member and in log retention (decisions 185, 194). */
export interface AuthForProduct {
  /** Removes what the auth service keeps of the person: sessions, factors, keyed rate-limit rows… */
  eraseTraces(tx: Queryable, person: { userId: string; emails: string[] }): Promise<void>;
  /** Deletes the auth audit log's entries older than `months`; how many went. */
  pruneAuditLog(db: Queryable, months: number): Promise<number>;
}

/** Blob storage as product code uses it: the backend's operations, and whether a blob was missing. */
export interface BlobsForProduct {
  backend: StorageBackend;
  isMissing(error: unknown): boolean;
}

/** What the storage service offers evidence handling: storing an object as the service. */
export type { StorageService } from '../storage/storage.ts';
export type { StorageBackend };

/** The platform's side of the interfaces above, bound to this server's secret and blob backend. */
export function productPlatform(
  jwtSecret: string,
  backend: StorageBackend,
): {
  auth: AuthForProduct;
  blobs: BlobsForProduct;
} {
  return {
    auth: {
      eraseTraces: (tx, person) => eraseAuthTraces(tx, jwtSecret, person),
      pruneAuditLog: (db, months) => pruneAuthAuditLog(db, months),
    },
    blobs: { backend, isMissing: (error) => error instanceof BlobNotFound },
  };
}
