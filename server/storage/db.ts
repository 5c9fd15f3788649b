import type { Queryable } from '../db/driver.ts';
import { quoteIdent } from '../db/sql.ts';
import type { BucketSortColumn, ObjectSortColumn, SortOrder } from './listing.ts';

/**
 * Every statement of the file service. Each runs inside the caller's scoped transaction (or the
 * service's own, for bucket settings), so row-level security on storage.buckets and storage.objects
 * decides what it sees and changes. Values are always parameters; the only identifiers spliced in
 * are sort columns from the whitelists of listing.ts, quoted by quoteIdent.
 */

/** Timestamps leave the database as ISO 8601 in UTC with milliseconds, as Supabase's JSON has them. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  type: string;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
  created_at: string;
  updated_at: string;
}

/** What uploads need to know about a bucket. */
export interface BucketSettings {
  id: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

const BUCKET_COLUMNS = `id, name, coalesce(owner_id, owner::text) as owner, public, type,
  file_size_limit::float8 as file_size_limit, allowed_mime_types,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at`;

/** `%`, `_` and `\` match themselves in a LIKE pattern built from user text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export async function listBuckets(
  tx: Queryable,
  options: {
    limit: number | null;
    offset: number;
    search: string;
    sortColumn: BucketSortColumn;
    sortOrder: SortOrder;
  },
): Promise<BucketRow[]> {
  const direction = options.sortOrder === 'desc' ? 'desc' : 'asc';
  const { rows } = await tx.query<BucketRow>(
    `select ${BUCKET_COLUMNS} from storage.buckets
     where $1 = '' or name ilike '%' || $1 || '%' escape '\\'
     order by ${quoteIdent(options.sortColumn)} ${direction}, id collate "C" ${direction}
     limit $2 offset $3`,
    [escapeLike(options.search), options.limit, options.offset],
  );
  return rows;
}

/** One bucket as Supabase Storage's GET /bucket/:id selects it: no `type` (listings have it). */
export async function getBucket(tx: Queryable, id: string): Promise<Omit<BucketRow, 'type'> | undefined> {
  const { rows } = await tx.query<Omit<BucketRow, 'type'>>(
    `select id, name, coalesce(owner_id, owner::text) as owner, public,
       ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at,
       file_size_limit::float8 as file_size_limit, allowed_mime_types
     from storage.buckets where id = $1`,
    [id],
  );
  return rows[0];
}

/** A bucket's cap on signed URL lifetimes (decision 154); undefined when there is none. */
export async function signedUrlCap(tx: Queryable, id: string): Promise<number | undefined> {
  const { rows } = await tx.query<{ cap: number | null }>(
    'select signed_url_max_seconds as cap from storage.buckets where id = $1',
    [id],
  );
  return rows[0]?.cap ?? undefined;
}

export async function getBucketSettings(tx: Queryable, id: string): Promise<BucketSettings | undefined> {
  const { rows } = await tx.query<BucketSettings>(
    `select id, public, file_size_limit::float8 as file_size_limit, allowed_mime_types
     from storage.buckets where id = $1`,
    [id],
  );
  return rows[0];
}

export async function insertBucket(
  tx: Queryable,
  bucket: {
    id: string;
    name: string;
    owner: string | undefined;
    public: boolean;
    fileSizeLimit: number | null;
    allowedMimeTypes: string[] | null;
  },
): Promise<void> {
  await tx.query(
    `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
     values ($1, $2, case when $3 ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' then $3::uuid end, $3,
             $4, $5, $6)`,
    [
      bucket.id,
      bucket.name,
      bucket.owner ?? null,
      bucket.public,
      bucket.fileSizeLimit,
      bucket.allowedMimeTypes,
    ],
  );
}

/** Changes only the settings given; resolves to whether the bucket was there (and visible). */
export async function updateBucket(
  tx: Queryable,
  id: string,
  changes: { public?: boolean; fileSizeLimit?: number | null; allowedMimeTypes?: string[] | null },
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `update storage.buckets set
       public = case when $2 then $3 else public end,
       file_size_limit = case when $4 then $5 else file_size_limit end,
       allowed_mime_types = case when $6 then $7 else allowed_mime_types end,
       updated_at = now()
     where id = $1`,
    [
      id,
      changes.public !== undefined,
      changes.public ?? null,
      changes.fileSizeLimit !== undefined,
      changes.fileSizeLimit ?? null,
      changes.allowedMimeTypes !== undefined,
      changes.allowedMimeTypes ?? null,
    ],
  );
  return rowCount > 0;
}

export async function deleteBucket(tx: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await tx.query('delete from storage.buckets where id = $1', [id]);
  return rowCount > 0;
}

// -------------------------------------------------------------------------------------------------
// Objects
// -------------------------------------------------------------------------------------------------

/** Supabase's system metadata of an object (storage-js `FileMetadata`). */
export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  version: string;
  metadata: ObjectMetadata;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
  /** Last-Modified as an HTTP date. */
  modified_http: string;
}

const OBJECT_COLUMNS = `id, bucket_id, name, coalesce(owner_id, owner::text) as owner, version, metadata,
  user_metadata, ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at,
  ${iso('last_accessed_at')} as last_accessed_at,
  to_char(updated_at at time zone 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"') as modified_http`;

export interface NewObject {
  bucketId: string;
  name: string;
  owner: string | undefined;
  version: string;
  metadata: ObjectMetadata | null;
  userMetadata: Record<string, unknown> | null;
}

const INSERT_OBJECT = `insert into storage.objects
    (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
  values ($1, $2, case when $3 ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' then $3::uuid end, $3,
          $4, $5, $6)`;

function objectParams(object: NewObject): unknown[] {
  return [
    object.bucketId,
    object.name,
    object.owner ?? null,
    object.version,
    object.metadata === null ? null : JSON.stringify(object.metadata),
    object.userMetadata === null ? null : JSON.stringify(object.userMetadata),
  ];
}

export async function insertObject(tx: Queryable, object: NewObject): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(`${INSERT_OBJECT} returning id`, objectParams(object));
  return (rows[0] as { id: string }).id;
}

/** Insert, or replace the object of the same name (keeping its id), as Supabase's upsert. */
export async function upsertObject(tx: Queryable, object: NewObject): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `${INSERT_OBJECT}
     on conflict (bucket_id, name) do update set
       owner = excluded.owner, owner_id = excluded.owner_id, version = excluded.version,
       metadata = excluded.metadata, user_metadata = excluded.user_metadata,
       updated_at = now(), last_accessed_at = now()
     returning id`,
    objectParams(object),
  );
  return (rows[0] as { id: string }).id;
}

/**
 * The current version of an object, with its name locked until the transaction ends (undefined when
 * there is no object yet). The advisory lock also covers a name nobody has written yet, so of two
 * concurrent replacements the second always sees the first one's version and removes its blob.
 */
export async function lockObjectVersion(
  tx: Queryable,
  bucketId: string,
  name: string,
): Promise<string | undefined> {
  await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `storage.objects/${bucketId}/${name}`,
  ]);
  const { rows } = await tx.query<{ version: string }>(
    'select version from storage.objects where bucket_id = $1 and name = $2 for update',
    [bucketId, name],
  );
  return rows[0]?.version;
}

export async function findObject(
  tx: Queryable,
  bucketId: string,
  name: string,
): Promise<ObjectRow | undefined> {
  const { rows } = await tx.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucketId, name],
  );
  return rows[0];
}

/**
 * A bucket's public flag and, when it exists, the named object — in one statement, for the download
 * path. undefined: no such bucket.
 */
export async function findObjectInBucket(
  tx: Queryable,
  bucketId: string,
  name: string,
): Promise<{ public: boolean; object: ObjectRow | undefined } | undefined> {
  const { rows } = await tx.query<ObjectRow & { bucket_public: boolean; found: boolean }>(
    `select b.public as bucket_public, o.id is not null as found, o.*
     from storage.buckets b
     left join lateral (
       select ${OBJECT_COLUMNS} from storage.objects where bucket_id = b.id and name = $2
     ) o on true
     where b.id = $1`,
    [bucketId, name],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { bucket_public, found, ...object } = row;
  return { public: bucket_public, object: found ? (object as ObjectRow) : undefined };
}

/** Which of the names exist (and are visible to the caller). */
export async function existingNames(tx: Queryable, bucketId: string, names: string[]): Promise<Set<string>> {
  const { rows } = await tx.query<{ name: string }>(
    'select name from storage.objects where bucket_id = $1 and name = any($2::text[])',
    [bucketId, names],
  );
  return new Set(rows.map((row) => row.name));
}

/** Renames an object (possibly into another bucket); undefined when the source is not there. */
export async function moveObject(
  tx: Queryable,
  from: { bucketId: string; name: string },
  to: { bucketId: string; name: string },
): Promise<string | undefined> {
  const { rows } = await tx.query<{ id: string }>(
    `update storage.objects set bucket_id = $3, name = $4, updated_at = now()
     where bucket_id = $1 and name = $2 returning id`,
    [from.bucketId, from.name, to.bucketId, to.name],
  );
  return rows[0]?.id;
}

/** A deleted object, as Supabase's remove() answers it. */
export interface DeletedObject {
  name: string;
  id: string;
  bucket_id: string;
  owner: string | null;
  version: string;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
  metadata: ObjectMetadata | null;
}

export async function deleteObjects(
  tx: Queryable,
  bucketId: string,
  names: string[],
): Promise<DeletedObject[]> {
  const { rows } = await tx.query<DeletedObject>(
    `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
     returning name, id, bucket_id, coalesce(owner_id, owner::text) as owner, version,
       ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at,
       ${iso('last_accessed_at')} as last_accessed_at, metadata`,
    [bucketId, names],
  );
  return rows;
}

/** Deletes up to `batch` objects of a bucket; resolves to their blob versions. */
export async function deleteSomeObjects(tx: Queryable, bucketId: string, batch: number): Promise<string[]> {
  const { rows } = await tx.query<{ version: string }>(
    `delete from storage.objects where id in (
       select id from storage.objects where bucket_id = $1 limit $2
     ) returning version`,
    [bucketId, batch],
  );
  return rows.map((row) => row.version);
}

export interface ListedObject {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: ObjectMetadata | null;
}

/**
 * One level of a bucket as folders and files (Supabase's storage.search): the names under `prefix`
 * (a folder path ending in `/`, or '') that start with `search`, case-insensitively; deeper names
 * appear once as their folder (id and dates null). Folders first, then files, each sorted.
 */
export async function listObjects(
  tx: Queryable,
  bucketId: string,
  options: {
    prefix: string;
    search: string;
    limit: number;
    offset: number;
    sortColumn: ObjectSortColumn;
    sortOrder: SortOrder;
  },
): Promise<ListedObject[]> {
  const level = options.prefix.split('/').length;
  const direction = options.sortOrder === 'desc' ? 'desc' : 'asc';
  const sortKey =
    options.sortColumn === 'name'
      ? `name collate "C" ${direction}`
      : `${quoteIdent(options.sortColumn)} ${direction} nulls last, name collate "C" ${direction}`;
  const { rows } = await tx.query<ListedObject>(
    `with matching as (
       select path_tokens, id, updated_at, created_at, last_accessed_at, metadata
       from storage.objects
       where bucket_id = $1 and name ilike $2 escape '\\' and cardinality(path_tokens) >= $3
     ), entries as (
       select distinct 0 as kind, path_tokens[$3] as name, null::uuid as id,
         null::timestamptz as updated_at, null::timestamptz as created_at,
         null::timestamptz as last_accessed_at, null::jsonb as metadata
       from matching where cardinality(path_tokens) > $3
       union all
       select 1, path_tokens[$3], id, updated_at, created_at, last_accessed_at, metadata
       from matching where cardinality(path_tokens) = $3
     )
     select name, id,
       case when updated_at is null then null else ${iso('updated_at')} end as updated_at,
       case when created_at is null then null else ${iso('created_at')} end as created_at,
       case when last_accessed_at is null then null else ${iso('last_accessed_at')} end as last_accessed_at,
       metadata
     from entries
     order by kind, ${sortKey}
     limit $4 offset $5`,
    [
      bucketId,
      `${escapeLike(options.prefix)}${escapeLike(options.search)}%`,
      level,
      options.limit,
      options.offset,
    ],
  );
  return rows;
}

export interface ListedObjectV2 {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: ObjectMetadata | null;
  /** The entry's segment at the prefix's level. */
  key: string;
  is_folder: boolean;
}

/**
 * A page of Supabase's list-v2 (storage.search_v2 / list_objects_with_delimiter): the names that
 * start with `prefix` (case-sensitive), after the cursor, in one order; with `delimiter`, the names
 * with a `/` after the prefix appear once as their folder (`prefix…/`), dated by the earliest
 * object in it. Returns up to `limit` entries (the caller asks for one more to know whether there is
 * a next page).
 */
export async function listObjectsV2(
  tx: Queryable,
  bucketId: string,
  options: {
    prefix: string;
    delimiter: boolean;
    limit: number;
    sortColumn: 'name' | 'created_at' | 'updated_at';
    sortOrder: SortOrder;
    after?: { name: string; date?: string };
  },
): Promise<ListedObjectV2[]> {
  const direction = options.sortOrder === 'desc' ? 'desc' : 'asc';
  const compare = direction === 'asc' ? '>' : '<';
  const values: unknown[] = [];
  const param = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const bucket = param(bucketId, 'text');
  const pattern = param(`${escapeLike(options.prefix)}%`, 'text');
  const limit = param(options.limit, 'int');
  let cursor = 'true';
  let order = `name collate "C" ${direction}`;
  if (options.sortColumn !== 'name') {
    const column = quoteIdent(options.sortColumn);
    order = `date_trunc('milliseconds', ${column}) ${direction}, ${order}`;
    if (options.after) {
      const date = param(options.after.date ?? '', 'text');
      const name = param(options.after.name, 'text');
      cursor = `row(date_trunc('milliseconds', ${column}), name collate "C") ${compare}
        row(coalesce(nullif(${date}, '')::timestamptz, 'epoch'::timestamptz), ${name})`;
    }
  } else if (options.after) {
    cursor = `name collate "C" ${compare} ${param(options.after.name, 'text')}`;
  }
  let folder = 'null::text';
  if (options.delimiter) {
    const length = param(options.prefix.length, 'int');
    folder = `case when position('/' in substr(o.name, ${length} + 1)) > 0
      then left(o.name, ${length} + position('/' in substr(o.name, ${length} + 1))) end`;
  }
  const level = options.prefix.split('/').length;
  const { rows } = await tx.query<ListedObjectV2>(
    `with raw as (
       select o.name, o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata, ${folder} as folder
       from storage.objects o
       where o.bucket_id = ${bucket} and o.name collate "C" like ${pattern} escape '\\'
     ), entries as (
       select folder as name, null::uuid as id, min(created_at) as updated_at, min(created_at) as created_at,
         null::timestamptz as last_accessed_at, null::jsonb as metadata, true as is_folder
       from raw where folder is not null group by folder
       union all
       select name, id, updated_at, created_at, last_accessed_at, metadata, false
       from raw where folder is null
     )
     select name, id, split_part(name, '/', ${level}) as key, is_folder,
       case when updated_at is null then null else ${iso('updated_at')} end as updated_at,
       case when created_at is null then null else ${iso('created_at')} end as created_at,
       case when last_accessed_at is null then null else ${iso('last_accessed_at')} end as last_accessed_at,
       metadata
     from entries
     where ${cursor}
     order by ${order}
     limit ${limit}`,
    values,
  );
  return rows;
}

/** Records a signed upload token as used; false when it already was. */
export async function consumeUploadToken(tx: Queryable, tokenId: string, expiresAt: Date): Promise<boolean> {
  const { rows } = await tx.query<{ fresh: boolean }>(
    'select storage.consume_upload_token($1::uuid, $2::timestamptz) as fresh',
    [tokenId, expiresAt.toISOString()],
  );
  return rows[0]?.fresh === true;
}

export async function uploadTokenUsed(tx: Queryable, tokenId: string): Promise<boolean> {
  const { rows } = await tx.query<{ used: boolean }>('select storage.upload_token_used($1::uuid) as used', [
    tokenId,
  ]);
  return rows[0]?.used === true;
}
