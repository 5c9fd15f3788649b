import type { FastifyInstance } from 'fastify';
import { objectParams } from '../http/caller.ts';
import { sendObject } from '../http/send-object.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * GET and HEAD /object/sign/:bucketName/*?token= — downloads with a signed URL (storage-js
 * createSignedUrl); no credentials needed. The response expires with the token.
 */
export default function getSignedObject(app: FastifyInstance, { storage }: StorageDeps): void {
  app.route<{ Querystring: { token?: string; download?: string } }>({
    method: ['GET', 'HEAD'],
    url: '/object/sign/:bucketName/*',
    compress: false,
    config: { storagePublic: true },
    handler: async (request, reply) => {
      const { bucketName, name } = objectParams(request);
      const { object, expiresAt } = await storage.findSignedObject(request.query.token, bucketName, name);
      return sendObject(request, reply, storage, object, { download: request.query.download, expiresAt });
    },
  });
}
