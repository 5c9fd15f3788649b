import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

/** GET /bucket/:bucketId — one bucket's settings (storage-js getBucket). */
export default function getBucket(app: FastifyInstance, { storage }: StorageDeps): void {
  app.get<{ Params: { bucketId: string } }>('/bucket/:bucketId', async (request) => {
    const caller = callerOf(request);
    return storage.getBucket(caller, request.params.bucketId);
  });
}
