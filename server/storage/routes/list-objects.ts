import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import { OBJECT_SORT_COLUMNS, type ObjectSortColumn, type SortOrder } from '../listing.ts';
import type { StorageDeps } from '../storage.ts';

interface Body {
  prefix?: string;
  limit?: number;
  offset?: number;
  search?: string;
  sortBy?: { column?: ObjectSortColumn; order?: SortOrder };
}

/**
 * POST /object/list/:bucketName — one folder level: sub-folders, then files (storage-js list).
 * Defaults: prefix '', limit 100 (product §storage-calls), offset 0, sorted by name ascending.
 */
export default function listObjects(app: FastifyInstance, { storage }: StorageDeps): void {
  app.post<{ Params: { bucketName: string }; Body: Body }>(
    '/object/list/:bucketName',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            prefix: { type: 'string', maxLength: 1024 },
            limit: { type: 'integer', minimum: 1, maximum: 1000 },
            offset: { type: 'integer', minimum: 0 },
            search: { type: 'string', maxLength: 1024 },
            sortBy: {
              type: 'object',
              properties: {
                column: { type: 'string', enum: [...OBJECT_SORT_COLUMNS] },
                order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { prefix = '', limit = 100, offset = 0, search = '', sortBy = {} } = request.body ?? {};
      return storage.listObjects(caller, request.params.bucketName, {
        prefix: prefix.replace(/^\/+/, ''),
        search,
        limit,
        offset,
        sortColumn: sortBy.column ?? 'name',
        sortOrder: sortBy.order?.toLowerCase() === 'desc' ? 'desc' : 'asc',
      });
    },
  );
}
