import type { FastifyInstance } from 'fastify';
import { callerOf } from '../http/caller.ts';
import { BUCKET_SORT_COLUMNS, type BucketSortColumn, type SortOrder } from '../listing.ts';
import type { StorageDeps } from '../storage.ts';

interface Query {
  limit?: number;
  offset?: number;
  search?: string;
  sortColumn?: BucketSortColumn;
  sortOrder?: SortOrder;
}

/** GET /bucket — the buckets the caller may see (storage-js listBuckets). */
export default function listBuckets(app: FastifyInstance, { storage }: StorageDeps): void {
  app.get<{ Querystring: Query }>(
    '/bucket',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: 10000 },
            offset: { type: 'integer', minimum: 0 },
            search: { type: 'string', maxLength: 100 },
            sortColumn: { type: 'string', enum: [...BUCKET_SORT_COLUMNS] },
            sortOrder: { type: 'string', enum: ['asc', 'desc'] },
          },
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { limit, offset = 0, search = '', sortColumn = 'name', sortOrder = 'asc' } = request.query;
      return storage.listBuckets(caller, { limit: limit ?? null, offset, search, sortColumn, sortOrder });
    },
  );
}
