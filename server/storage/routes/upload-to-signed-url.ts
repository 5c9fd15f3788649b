import type { FastifyInstance } from 'fastify';
import { objectParams } from '../http/caller.ts';
import { receiveUpload } from '../http/upload.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * PUT /object/upload/sign/:bucketName/*?token= — uploads with a signed upload URL (storage-js
 * uploadToSignedUrl). No API key needed: the token is the permission. The upload runs as the caller
 * who created the URL, so the bucket's policies decide again, and the token works once.
 */
export default function uploadToSignedUrl(app: FastifyInstance, deps: StorageDeps): void {
  const options = { config: { storagePublic: true } };
  app.put<{ Querystring: { token?: string } }>(
    '/object/upload/sign/:bucketName/*',
    options,
    async (request) => {
      const { bucketName, name } = objectParams(request);
      const { caller, grant } = await deps.storage.redeemUploadToken(request.query.token, bucketName, name, {
        headers: { 'x-forwarded-for': request.ip, 'x-real-ip': request.ip },
        method: request.method,
        path: request.url.split('?')[0] ?? '',
      });
      const { Id, Key } = await receiveUpload(request, deps, caller, { upsert: grant.upsert, grant });
      return { Id, Key };
    },
  );
}
