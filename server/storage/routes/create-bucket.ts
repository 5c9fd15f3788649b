import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import type { StorageDeps } from '../storage.ts';

interface Body {
  id?: string;
  name: string;
  public?: boolean;
  file_size_limit?: number | string | null;
  allowed_mime_types?: string[] | null;
  type?: string;
}

/** POST /bucket — creates a bucket; RLS on storage.buckets decides who may (storage-js createBucket). */
export default function createBucket(app: FastifyInstance, { storage }: StorageDeps): void {
  app.post<{ Body: Body }>(
    '/bucket',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            public: { type: 'boolean' },
            // Number, string with a unit, or null: checked by the service (no coercion here).
            file_size_limit: {},
            allowed_mime_types: {},
            type: { type: 'string', enum: ['STANDARD'] },
          },
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const body = request.body;
      return storage.createBucket(caller, {
        id: body.id,
        name: body.name,
        public: body.public,
        fileSizeLimit: body.file_size_limit,
        allowedMimeTypes: body.allowed_mime_types,
      });
    },
  );
}
