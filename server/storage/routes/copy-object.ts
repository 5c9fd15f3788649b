import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

interface Body {
  bucketId: string;
  sourceKey: string;
  destinationKey: string;
  destinationBucket?: string | null;
}

/**
 * POST /object/copy — copies an object to a new name, within its bucket or into another (storage-js
 * copy). The caller must be able to read the source and write the destination; `x-upsert: true`
 * replaces an existing destination.
 */
export default function copyObject(app: FastifyInstance, { storage }: StorageDeps): void {
  app.post<{ Body: Body }>(
    '/object/copy',
    {
      schema: {
        body: {
          type: 'object',
          required: ['bucketId', 'sourceKey', 'destinationKey'],
          properties: {
            bucketId: { type: 'string' },
            sourceKey: { type: 'string' },
            destinationKey: { type: 'string' },
            destinationBucket: {},
          },
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { id, key } = await storage.copyObject(caller, {
        ...request.body,
        upsert: request.headers['x-upsert'] === 'true',
      });
      return { Id: id, Key: key };
    },
  );
}
