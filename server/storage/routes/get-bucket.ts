import type { FastifyInstance } from 'fastify';
import { callerOf, type StorageRouteDeps } from '../http/context.ts';

/** GET /bucket/:bucketId — one bucket's settings (storage-js getBucket). */
export default function getBucket(app: FastifyInstance, { storage }: StorageRouteDeps): void {
  app.get<{ Params: { bucketId: string } }>('/bucket/:bucketId', async (request) => {
    const caller = callerOf(request);
    return storage.getBucket(caller, request.params.bucketId);
  });
}
