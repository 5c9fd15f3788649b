import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import type { SortOrder } from '../listing.ts';
import type { StorageDeps } from '../storage.ts';

interface Body {
  prefix?: string;
  limit?: number;
  cursor?: string;
  with_delimiter?: boolean;
  sortBy?: { column: 'name' | 'created_at' | 'updated_at'; order?: SortOrder };
}

/**
 * POST /object/list-v2/:bucketName — cursor-based listing (storage-js listV2), with the body Supabase
 * Storage takes: `prefix` (a plain name prefix), `limit` (default and at most 1000), `cursor` (the
 * previous page's `nextCursor`), `with_delimiter` (folders) and `sortBy`.
 */
export default function listObjectsV2(app: FastifyInstance, { storage }: StorageDeps): void {
  app.post<{ Params: { bucketName: string }; Body: Body }>(
    '/object/list-v2/:bucketName',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            prefix: { type: 'string', maxLength: 1024 },
            limit: { type: 'integer', minimum: 1 },
            cursor: { type: 'string', maxLength: 4096 },
            with_delimiter: { type: 'boolean' },
            sortBy: {
              type: 'object',
              properties: {
                column: { type: 'string', enum: ['name', 'updated_at', 'created_at'] },
                order: { type: 'string', enum: ['asc', 'desc'] },
              },
              required: ['column'],
            },
          },
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const body = request.body ?? {};
      return storage.listObjectsV2(caller, request.params.bucketName, {
        prefix: body.prefix ?? '',
        delimiter: body.with_delimiter === true,
        limit: body.limit ?? 1000,
        cursor: body.cursor || undefined,
        sortColumn: body.sortBy?.column,
        sortOrder: body.sortBy?.order,
      });
    },
  );
}
