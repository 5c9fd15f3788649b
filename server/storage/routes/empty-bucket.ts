import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * POST /bucket/:bucketId/empty — deletes every object the caller may delete (storage-js emptyBucket).
 * The answer is Supabase Storage's, which queues the work; here it is already done when it is sent.
 */
export default function emptyBucket(app: FastifyInstance, { storage }: StorageDeps): void {
  app.post<{ Params: { bucketId: string } }>('/bucket/:bucketId/empty', async (request) => {
    const caller = callerOf(request);
    await storage.emptyBucket(caller, request.params.bucketId);
    return { message: 'Empty bucket has been queued. Completion may take up to an hour.' };
  });
}
