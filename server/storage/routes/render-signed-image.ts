import type { FastifyInstance } from 'fastify';
import { objectParams } from '../http/caller.ts';
import { sendRendition } from '../http/send-object.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * GET /render/image/sign/:bucketName/*?token= — a signed URL made with `transform` (storage-js
 * createSignedUrl(path, expiresIn, { transform })): the transformations are in the signed token, so
 * the holder cannot change them; query parameters other than `download` are ignored (decision 228).
 */
export default function renderSignedImage(app: FastifyInstance, { storage }: StorageDeps): void {
  app.get<{ Querystring: { token?: string; download?: string } }>(
    '/render/image/sign/:bucketName/*',
    { compress: false, config: { storagePublic: true } },
    async (request, reply) => {
      const { bucketName, name } = objectParams(request);
      const { object, expiresAt, transform } = await storage.findSignedObject(
        request.query.token,
        bucketName,
        name,
      );
      const rendition = await storage.renderImage(object, transform, request.headers.accept);
      return sendRendition(request, reply, object, rendition, {
        download: request.query.download,
        expiresAt,
      });
    },
  );
}
