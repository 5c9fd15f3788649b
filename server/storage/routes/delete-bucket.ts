import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

/** DELETE /bucket/:bucketId — only an empty bucket goes (storage-js deleteBucket). */
export default function deleteBucket(app: FastifyInstance, { storage }: StorageDeps): void {
  app.delete<{ Params: { bucketId: string } }>('/bucket/:bucketId', async (request) => {
    const caller = callerOf(request);
    await storage.deleteBucket(caller, request.params.bucketId);
    return { message: 'Successfully deleted' };
  });
}
