import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

interface Body {
  public?: boolean;
  file_size_limit?: number | string | null;
  allowed_mime_types?: string[] | null;
}

/** PUT /bucket/:bucketId — changes the settings given (storage-js updateBucket). */
export default function updateBucket(app: FastifyInstance, { storage }: StorageDeps): void {
  app.put<{ Params: { bucketId: string }; Body: Body }>(
    '/bucket/:bucketId',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            public: { type: 'boolean' },
            // Number, string with a unit, or null: checked by the service (no coercion here).
            file_size_limit: {},
            allowed_mime_types: {},
          },
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const body = request.body ?? {};
      await storage.updateBucket(caller, request.params.bucketId, {
        public: body.public,
        fileSizeLimit: body.file_size_limit,
        allowedMimeTypes: body.allowed_mime_types,
      });
      return { message: 'Successfully updated' };
    },
  );
}
