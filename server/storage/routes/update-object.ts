import type { FastifyInstance } from 'fastify';
import { callerOf, type StorageRouteDeps } from '../http/context.ts';
import { receiveUpload } from '../http/upload.ts';

/** PUT /object/:bucketName/* — uploads and replaces whatever has the name (storage-js update). */
export default function updateObject(app: FastifyInstance, deps: StorageRouteDeps): void {
  app.put('/object/:bucketName/*', async (request) => {
    const caller = callerOf(request);
    return receiveUpload(request, deps, caller, { upsert: true });
  });
}
