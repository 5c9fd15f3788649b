import type { FastifyInstance } from 'fastify';
import { callerOf, type StorageRouteDeps } from '../http/context.ts';

/** POST /bucket/:bucketId/empty — deletes every object the caller may delete (storage-js emptyBucket). */
export default function emptyBucket(app: FastifyInstance, { storage }: StorageRouteDeps): void {
  app.post<{ Params: { bucketId: string } }>('/bucket/:bucketId/empty', async (request) => {
    const caller = callerOf(request);
    await storage.emptyBucket(caller, request.params.bucketId);
    return { message: 'Successfully emptied' };
  });
}
