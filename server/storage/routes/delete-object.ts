import type { FastifyInstance } from 'fastify';
import { callerOf, objectParams } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

/** DELETE /object/:bucketName/* — deletes one object ("Object not found" if the caller may not). */
export default function deleteObject(app: FastifyInstance, { storage }: StorageDeps): void {
  app.delete('/object/:bucketName/*', async (request) => {
    const caller = callerOf(request);
    const { bucketName, name } = objectParams(request);
    await storage.deleteObject(caller, bucketName, name);
    return { message: 'Successfully deleted' };
  });
}
