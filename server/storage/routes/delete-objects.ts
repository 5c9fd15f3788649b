import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * DELETE /object/:bucketName — deletes the named objects the caller may delete and answers them
 * (storage-js remove); names that do not exist or are not the caller's are left out of the answer.
 */
export default function deleteObjects(app: FastifyInstance, { storage }: StorageDeps): void {
  app.delete<{ Params: { bucketName: string }; Body: { prefixes: string[] } }>(
    '/object/:bucketName',
    {
      schema: {
        body: {
          type: 'object',
          required: ['prefixes'],
          properties: {
            prefixes: {
              type: 'array',
              minItems: 1,
              maxItems: 1000,
              items: { type: 'string', maxLength: 1024 },
            },
          },
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return storage.deleteObjects(caller, request.params.bucketName, request.body.prefixes);
    },
  );
}
