import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

/**
 * POST /object/sign/:bucketName — signed URLs for several objects at once (storage-js
 * createSignedUrls); a path the caller may not read gets an error entry instead of a URL.
 */
export default function createSignedUrls(app: FastifyInstance, { storage }: StorageDeps): void {
  app.post<{ Params: { bucketName: string }; Body: { expiresIn: number; paths: string[] } }>(
    '/object/sign/:bucketName',
    {
      schema: {
        body: {
          type: 'object',
          required: ['expiresIn', 'paths'],
          properties: {
            expiresIn: { type: 'integer', minimum: 1 },
            paths: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', maxLength: 1024 } },
          },
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return storage.signUrls(caller, request.params.bucketName, request.body.paths, request.body.expiresIn);
    },
  );
}
