import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import { receiveUpload } from '../http/upload.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * POST /object/:bucketName/* — uploads a new object (storage-js upload). `x-upsert: true` replaces an
 * existing one; otherwise an existing name answers 409.
 */
export default function createObject(app: FastifyInstance, deps: StorageDeps): void {
  app.post('/object/:bucketName/*', async (request) => {
    const caller = callerOf(request);
    return receiveUpload(request, deps, caller, { upsert: request.headers['x-upsert'] === 'true' });
  });
}
