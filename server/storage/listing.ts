/**
 * What bucket and object listings may be sorted by (storage-js `listBuckets` / `list` sortBy): the
 * routes offer exactly these, and db.ts splices only these column names into its SQL (quoted).
 */
export const BUCKET_SORT_COLUMNS = ['id', 'name', 'created_at', 'updated_at'] as const;
export type BucketSortColumn = (typeof BUCKET_SORT_COLUMNS)[number];

export const OBJECT_SORT_COLUMNS = ['name', 'updated_at', 'created_at', 'last_accessed_at'] as const;
export type ObjectSortColumn = (typeof OBJECT_SORT_COLUMNS)[number];

export type SortOrder = 'asc' | 'desc';
