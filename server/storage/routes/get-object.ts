import type { FastifyInstance } from 'fastify';
import { callerOf, objectParams } from '../http/caller.ts';
import { sendObject } from '../http/send-object.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * GET and HEAD /object/authenticated/:bucketName/* and /object/:bucketName/* — downloads as the
 * caller (storage-js download; HEAD is storage-js exists). Objects of private buckets are found
 * through the caller's policies; one they may not read answers "Object not found".
 */
export default function getObject(app: FastifyInstance, { storage }: StorageDeps): void {
  for (const url of ['/object/authenticated/:bucketName/*', '/object/:bucketName/*']) {
    app.route<{ Querystring: { download?: string } }>({
      method: ['GET', 'HEAD'],
      url,
      compress: false,
      handler: async (request, reply) => {
        const { bucketName, name } = objectParams(request);
        const object = await storage.findObject(callerOf(request), bucketName, name);
        return sendObject(request, reply, storage, object, { download: request.query.download });
      },
    });
  }
}
