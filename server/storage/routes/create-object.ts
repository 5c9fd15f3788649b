import type { FastifyInstance } from 'fastify';
import { callerOf, type StorageRouteDeps } from '../http/context.ts';
import { receiveUpload } from '../http/upload.ts';

/**
 * POST /object/:bucketName/* — uploads a new object (storage-js upload). `x-upsert: true` replaces an
 * existing one; otherwise an existing name answers 409.
 */
export default function createObject(app: FastifyInstance, deps: StorageRouteDeps): void {
  app.post('/object/:bucketName/*', async (request) => {
    const caller = callerOf(request);
    return receiveUpload(request, deps, caller, { upsert: request.headers['x-upsert'] === 'true' });
  });
}
