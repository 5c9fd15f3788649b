import type { FastifyInstance } from 'fastify';
import { callerOf, objectParams } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * POST /object/upload/sign/:bucketName/* — a URL anyone holding it may upload this one object with,
 * once, within UPLOAD_SIGNED_URL_EXPIRATION_TIME (storage-js createSignedUploadUrl). The caller's
 * right to write there is checked now; `x-upsert: true` lets the upload replace an existing object.
 */
export default function createSignedUploadUrl(app: FastifyInstance, { storage }: StorageDeps): void {
  app.post('/object/upload/sign/:bucketName/*', async (request) => {
    const caller = callerOf(request);
    const { bucketName, name } = objectParams(request);
    return storage.createSignedUploadUrl(caller, {
      bucketId: bucketName,
      name,
      upsert: request.headers['x-upsert'] === 'true',
    });
  });
}
