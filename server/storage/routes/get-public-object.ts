import type { FastifyInstance } from 'fastify';
import { objectParams } from '../http/caller.ts';
import { sendObject } from '../http/send-object.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * GET and HEAD /object/public/:bucketName/* — an object of a public bucket, to anyone, without
 * credentials (storage-js getPublicUrl). Other buckets answer "Bucket not found".
 */
export default function getPublicObject(app: FastifyInstance, { storage }: StorageDeps): void {
  app.route<{ Querystring: { download?: string } }>({
    method: ['GET', 'HEAD'],
    url: '/object/public/:bucketName/*',
    compress: false,
    config: { storagePublic: true },
    handler: async (request, reply) => {
      const { bucketName, name } = objectParams(request);
      const object = await storage.findObject(null, bucketName, name);
      return sendObject(request, reply, storage, object, { download: request.query.download });
    },
  });
}
