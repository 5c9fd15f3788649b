import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

interface Body {
  bucketId: string;
  sourceKey: string;
  destinationKey: string;
  destinationBucket?: string | null;
}

/** POST /object/move — renames an object, within its bucket or into another (storage-js move). */
export default function moveObject(app: FastifyInstance, { storage }: StorageDeps): void {
  app.post<{ Body: Body }>(
    '/object/move',
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
      await storage.moveObject(caller, request.body);
      return { message: 'Successfully moved' };
    },
  );
}
