/**
 * What the platform's services lend the product areas (`server/product/*`, decision 231): the one
 * file through which product code reaches inside a service. Product code may also use the shared
 * layers below the services (`db/`, `http/`, `mail/`, the top-level helpers) and the functions
 * service's own kit (`functions/http.ts`, `functions/errors.ts`); `server/structure.test.ts` refuses
 * any other import of a service from `server/product/`.
 */
export { eraseAuthTraces } from '../auth/erasure.ts';
export { pruneAuthAuditLog } from '../auth/retention.ts';
export { BlobNotFound, type StorageBackend } from '../storage/backends/backend.ts';
export type { StorageService } from '../storage/storage.ts';
