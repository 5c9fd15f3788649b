import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import { receiveUpload } from '../http/upload.ts';
import type { StorageDeps } from '../storage.ts';

/** PUT /object/:bucketName/* — uploads and replaces whatever has the name (storage-js update). */
export default function updateObject(app: FastifyInstance, deps: StorageDeps): void {
  app.put('/object/:bucketName/*', async (request) => {
    const caller = callerOf(request);
    return receiveUpload(request, deps, caller, { upsert: true });
  });
}
