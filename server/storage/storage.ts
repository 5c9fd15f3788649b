import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { StorageConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { AccountGoneError, type Database, type Queryable, type RequestScope } from '../db/driver.ts';
import { BlobNotFound, type ByteRange, type StorageBackend } from './backends/backend.ts';
import { openBackend } from './backends/index.ts';
import * as sql from './db.ts';
import { fromDatabaseError, StorageErrors } from './errors.ts';
import { effectiveSizeLimit, parseFileSizeLimit } from './limits.ts';
import type { SortOrder } from './listing.ts';
import {
  isAllowedType,
  isGenericType,
  isImageBucket,
  parseMediaType,
  validateAllowedMimeTypes,
} from './mime.ts';
import { bucketIdOrNotFound, validateBucketId, validateImageFileName, validateObjectName } from './names.ts';
import { ImageRenderer, type Rendition } from './render/renderer.ts';
import { type Transform, transformFromClaim, transformToClaim } from './render/transform.ts';
import { hasControlCharacters } from './text.ts';
import { MAX_SIGNED_URL_SECONDS, SignedUrls, type UploaderRole, type UploadGrant } from './tokens.ts';
import { UploadInspector } from './upload/inspect.ts';

/** What the file service's routes are built from (decision 088). */
export interface StorageDeps {
  ctx: AppContext;
  storage: StorageService;
}

/** The file service of one server: the configured blob backend and the domain over it. */
export async function createStorage(ctx: AppContext): Promise<StorageDeps> {
  const backend = await openBackend(ctx.config, (message, error) => ctx.log.warn({ err: error }, message));
  const signer = new SignedUrls(ctx.keys.jwtSecret);
  const renderer = new ImageRenderer(backend.renditions, ctx.log);
  return {
    ctx,
    storage: new StorageService(ctx.db, backend, ctx.config.storage, signer, ctx.log, renderer),
  };
}

/** Who is asking: the database scope their statements run in, and their user id (object owner). */
export interface ListV2Page {
  hasNext: boolean;
  nextCursor?: string;
  nextCursorKey?: string;
  folders: { id: null; name: string }[];
  objects: (Omit<sql.ListedObjectV2, 'is_folder' | 'key'> & { key?: string })[];
}

interface ListCursor {
  after: string;
  order?: SortOrder;
  column?: string;
  afterDate?: string;
}

const CURSOR_PARTS = { l: 'after', o: 'order', c: 'column', a: 'afterDate' } as const;

/** Supabase Storage's continuation token: `key:value` lines, base64. */
function encodeListCursor(cursor: ListCursor): string {
  const lines = Object.entries(CURSOR_PARTS)
    .filter(([, field]) => cursor[field])
    .map(([part, field]) => `${part}:${cursor[field]}`);
  return Buffer.from(lines.join('\n')).toString('base64');
}

function decodeListCursor(token: string): ListCursor {
  const cursor: ListCursor = { after: '', order: 'asc' };
  for (const line of Buffer.from(token, 'base64').toString().split('\n')) {
    const match = /^(\S):(.*)$/s.exec(line);
    const field = match ? CURSOR_PARTS[match[1] as keyof typeof CURSOR_PARTS] : undefined;
    if (!match || !field) throw StorageErrors.invalidRequest('Invalid continuation token');
    cursor[field] = match[2] as never;
  }
  if (cursor.order !== 'asc' && cursor.order !== 'desc')
    throw StorageErrors.invalidRequest('Invalid continuation token');
  if (cursor.column !== undefined && !['name', 'created_at', 'updated_at'].includes(cursor.column)) {
    throw StorageErrors.invalidRequest('Invalid continuation token');
  }
  if (cursor.afterDate !== undefined && Number.isNaN(Date.parse(cursor.afterDate))) {
    throw StorageErrors.invalidRequest('Invalid continuation token');
  }
  return cursor;
}

export interface Caller {
  scope: RequestScope;
  owner: string | undefined;
}

/** The file part of an upload request, as the HTTP layer found it. */
export interface IncomingFile {
  stream: Readable;
  /** Declared type: the request's Content-Type, or the multipart part's (or its contentType field). */
  contentType: string | undefined;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

/** What was settled before the first byte of an upload is read. */
export interface UploadPlan {
  bucketId: string;
  name: string;
  upsert: boolean;
  limit: number;
  allowed: string[] | null;
}

/** A stored object's row, with what a download needs. */
export type StoredObject = sql.ObjectRow;

/** Bucket settings (limits, types, public flag) are configuration, read as Supabase does: past RLS. */
const SERVICE_SCOPE: RequestScope = { role: 'service_role', claims: { role: 'service_role' } };

const ROLLBACK = Symbol('rollback');

const DELETE_BATCH = 1000;

/**
 * The file service's domain (no HTTP): buckets and objects, with every metadata statement run in the
 * caller's scope so row-level security decides (decision 040), and blobs in the configured backend.
 * The write path keeps the invariant of decision 042: a blob is committed only after all its bytes
 * arrived and its row is written, in one flow, and every failure removes what it wrote — so there is
 * never a row without its blob, and a failed upload leaves neither.
 */
export class StorageService {
  constructor(
    private readonly db: Database,
    private readonly backend: StorageBackend,
    private readonly config: StorageConfig,
    private readonly signer: SignedUrls,
    private readonly log: FastifyBaseLogger,
    /** Absent where a StorageService only manages objects (the functions service). */
    private readonly renderer?: ImageRenderer,
  ) {}

  /** Releases the backend (its connections, when S3). */
  close(): Promise<void> {
    return this.backend.close();
  }

  // -----------------------------------------------------------------------------------------------
  // Transactions
  // -----------------------------------------------------------------------------------------------

  private async scoped<T>(scope: RequestScope, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    // A deleted account's token (valid until it expires) acts for nobody (decision 097): the driver
    // checks it as the transaction opens.
    const signedIn = scope.role === 'authenticated' && typeof scope.claims.sub === 'string';
    try {
      return await this.db.withScope(signedIn ? { ...scope, requireAccount: true } : scope, fn);
    } catch (error) {
      if (error instanceof AccountGoneError) throw StorageErrors.accountGone();
      throw fromDatabaseError(error) ?? error;
    }
  }

  /** Runs `fn` as the caller and rolls it back: may they do this? (Supabase's testPermission.) */
  private async probe(scope: RequestScope, fn: (tx: Queryable) => Promise<unknown>): Promise<void> {
    try {
      await this.scoped(scope, async (tx) => {
        await fn(tx);
        throw ROLLBACK;
      });
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    }
  }

  private async settings(bucketId: string): Promise<sql.BucketSettings> {
    const settings = await this.scoped(SERVICE_SCOPE, (tx) => sql.getBucketSettings(tx, bucketId));
    if (!settings) throw StorageErrors.noSuchBucket();
    return settings;
  }

  /** Blobs no row refers to any more; a failure here leaves an orphan, never a dangling row. */
  private async removeBlobs(versions: (string | null | undefined)[]): Promise<void> {
    const keys = versions.filter((version): version is string => typeof version === 'string');
    if (keys.length === 0) return;
    try {
      await this.backend.remove(keys);
    } catch (error) {
      this.log.error({ err: error, keys }, 'storage: could not remove blobs (left as orphans)');
    }
  }

  // -----------------------------------------------------------------------------------------------
  // Buckets
  // -----------------------------------------------------------------------------------------------

  listBuckets(caller: Caller, options: Parameters<typeof sql.listBuckets>[1]): Promise<sql.BucketRow[]> {
    return this.scoped(caller.scope, (tx) => sql.listBuckets(tx, options));
  }

  async getBucket(caller: Caller, id: string): Promise<Omit<sql.BucketRow, 'type'>> {
    const bucketId = bucketIdOrNotFound(id);
    const bucket = await this.scoped(caller.scope, (tx) => sql.getBucket(tx, bucketId));
    if (!bucket) throw StorageErrors.noSuchBucket();
    return bucket;
  }

  async createBucket(
    caller: Caller,
    input: {
      id?: unknown;
      name: unknown;
      public?: unknown;
      fileSizeLimit?: unknown;
      allowedMimeTypes?: unknown;
    },
  ): Promise<{ name: string }> {
    const name = validateBucketId(input.name);
    const id = input.id === undefined || input.id === null ? name : validateBucketId(input.id);
    const bucket = {
      id,
      name: id,
      owner: caller.owner,
      public: input.public === true,
      fileSizeLimit: parseFileSizeLimit(input.fileSizeLimit, this.config.fileSizeLimit),
      allowedMimeTypes: validateAllowedMimeTypes(input.allowedMimeTypes),
    };
    if (name !== id) {
      // Supabase keeps id and name apart; here they are one (every client sends both the same).
      throw StorageErrors.invalidRequest('Bucket id and name must be the same');
    }
    await this.scoped(caller.scope, (tx) => sql.insertBucket(tx, bucket));
    return { name: id };
  }

  async updateBucket(
    caller: Caller,
    id: string,
    input: { public?: unknown; fileSizeLimit?: unknown; allowedMimeTypes?: unknown },
  ): Promise<void> {
    const bucketId = bucketIdOrNotFound(id);
    const changes: Parameters<typeof sql.updateBucket>[2] = {};
    if (input.public !== undefined) changes.public = input.public === true;
    if (input.fileSizeLimit !== undefined) {
      changes.fileSizeLimit = parseFileSizeLimit(input.fileSizeLimit, this.config.fileSizeLimit);
    }
    if (input.allowedMimeTypes !== undefined) {
      changes.allowedMimeTypes = validateAllowedMimeTypes(input.allowedMimeTypes);
    }
    const found = await this.scoped(caller.scope, (tx) => sql.updateBucket(tx, bucketId, changes));
    if (!found) throw StorageErrors.noSuchBucket();
  }

  /** Deletes every object of the bucket the caller may delete, in batches; then their blobs. */
  async emptyBucket(caller: Caller, id: string): Promise<void> {
    await this.getBucket(caller, id);
    for (;;) {
      const versions = await this.scoped(caller.scope, (tx) => sql.deleteSomeObjects(tx, id, DELETE_BATCH));
      await this.removeBlobs(versions);
      if (versions.length < DELETE_BATCH) return;
    }
  }

  async deleteBucket(caller: Caller, id: string): Promise<void> {
    const bucketId = bucketIdOrNotFound(id);
    const found = await this.scoped(caller.scope, (tx) => sql.deleteBucket(tx, bucketId));
    if (!found) throw StorageErrors.noSuchBucket();
  }

  // -----------------------------------------------------------------------------------------------
  // Uploads
  // -----------------------------------------------------------------------------------------------

  /**
   * Everything that can refuse an upload before its body is read: the name, the bucket, the caller's
   * right to write there (the insert or upsert is tried and rolled back, so RLS answers 403 and an
   * existing name 409 at once), and an announced size over the limit.
   */
  async prepareUpload(
    caller: Caller,
    target: { bucketId: string; name: string; upsert: boolean; declaredLength?: number | undefined },
  ): Promise<UploadPlan> {
    const bucketId = bucketIdOrNotFound(target.bucketId);
    const name = validateObjectName(target.name);
    const bucket = await this.settings(bucketId);
    if (isImageBucket(bucket.allowed_mime_types)) validateImageFileName(name);
    const probe: sql.NewObject = {
      bucketId,
      name,
      owner: caller.owner,
      version: randomUUID(),
      metadata: null,
      userMetadata: null,
    };
    await this.probe(caller.scope, (tx) =>
      target.upsert ? sql.upsertObject(tx, probe) : sql.insertObject(tx, probe),
    );
    const limit = effectiveSizeLimit(bucket.file_size_limit, this.config.fileSizeLimit);
    if (target.declaredLength !== undefined && target.declaredLength > limit) {
      throw StorageErrors.entityTooLarge();
    }
    return { bucketId, name, upsert: target.upsert, limit, allowed: bucket.allowed_mime_types };
  }

  /**
   * Streams the file through the inspector into a new blob, then in one transaction as the caller:
   * consume the upload token (signed uploads), lock the current row, write the new row, commit the
   * blob. The previous blob of a replaced object is removed after the transaction committed.
   */
  async upload(
    caller: Caller,
    plan: UploadPlan,
    file: IncomingFile,
    grant?: Pick<UploadGrant, 'tokenId' | 'expiresAt'>,
  ): Promise<{ id: string; key: string }> {
    const declared = parseMediaType(file.contentType);
    // A generic declared type is checked against the bucket once the bytes say what they are.
    if (!isGenericType(declared.essence) && !isAllowedType(declared.essence, plan.allowed)) {
      throw StorageErrors.invalidMimeType(declared.value);
    }

    const version = randomUUID();
    const inspector = new UploadInspector({
      limit: plan.limit,
      declared: declared.essence,
      declaredValue: declared.value,
      allowed: plan.allowed,
    });
    const write = await this.backend.startWrite(version, {
      contentType: declared.value,
      cacheControl: file.cacheControl,
    });
    let committed = false;
    try {
      file.stream.on('error', (error) => inspector.destroy(error));
      file.stream.pipe(inspector);
      await pipeline(inspector, write.stream);
      const { size, md5, stored } = inspector.inspection();
      const metadata: sql.ObjectMetadata = {
        eTag: `"${md5}"`,
        size,
        mimetype: stored ?? declared.value,
        cacheControl: file.cacheControl,
        lastModified: new Date().toISOString(),
        contentLength: size,
        httpStatusCode: 200,
      };
      const row: sql.NewObject = {
        bucketId: plan.bucketId,
        name: plan.name,
        owner: caller.owner,
        version,
        metadata,
        userMetadata: file.userMetadata,
      };
      const { id, previous } = await this.scoped(caller.scope, async (tx) => {
        if (grant && !(await sql.consumeUploadToken(tx, grant.tokenId, grant.expiresAt))) {
          throw StorageErrors.uploadTokenUsed();
        }
        const previousVersion = plan.upsert
          ? await sql.lockObjectVersion(tx, plan.bucketId, plan.name)
          : undefined;
        const objectId = plan.upsert ? await sql.upsertObject(tx, row) : await sql.insertObject(tx, row);
        await write.commit();
        committed = true;
        return { id: objectId, previous: previousVersion };
      });
      if (previous && previous !== version) await this.removeBlobs([previous]);
      return { id, key: `${plan.bucketId}/${plan.name}` };
    } catch (error) {
      file.stream.unpipe(inspector);
      inspector.destroy();
      if (committed) await this.removeBlobs([version]);
      else await write.abort();
      throw error;
    }
  }

  /** POST object/upload/sign: checks now that the caller may write there, then signs the grant. */
  async createSignedUploadUrl(
    caller: Caller,
    target: { bucketId: string; name: string; upsert: boolean },
  ): Promise<{ url: string; token: string }> {
    const plan = await this.prepareUpload(caller, target);
    const path = `${plan.bucketId}/${plan.name}`;
    const token = await this.signer.signUpload(
      path,
      { owner: caller.owner, role: caller.scope.role as UploaderRole },
      plan.upsert,
      this.config.uploadSignedUrlExpirySeconds,
    );
    return { url: `/object/upload/sign/${path}?token=${token}`, token };
  }

  /** PUT object/upload/sign: the grant in the token, and the caller it was issued to. */
  async redeemUploadToken(
    token: unknown,
    bucketId: string,
    name: string,
    requestScope: Pick<RequestScope, 'headers' | 'method' | 'path'>,
  ): Promise<{ caller: Caller; grant: UploadGrant }> {
    const grant = await this.signer.verifyUpload(token, `${bucketId}/${name}`);
    if (await this.scoped(SERVICE_SCOPE, (tx) => sql.uploadTokenUsed(tx, grant.tokenId))) {
      throw StorageErrors.uploadTokenUsed();
    }
    const claims: Record<string, unknown> = { role: grant.role };
    if (grant.owner) claims.sub = grant.owner;
    return {
      caller: { scope: { ...requestScope, role: grant.role, claims }, owner: grant.owner },
      grant,
    };
  }

  // -----------------------------------------------------------------------------------------------
  // Copy and move
  // -----------------------------------------------------------------------------------------------

  /** A destination must accept what the source holds: its type and size (decision 043). */
  private async checkDestination(
    destinationBucket: string,
    destinationName: string,
    metadata: sql.ObjectMetadata | null,
  ): Promise<void> {
    const bucket = await this.settings(destinationBucket);
    if (isImageBucket(bucket.allowed_mime_types)) validateImageFileName(destinationName);
    if (!metadata) return;
    const type = parseMediaType(metadata.mimetype);
    if (!isAllowedType(type.essence, bucket.allowed_mime_types))
      throw StorageErrors.invalidMimeType(type.value);
    if (metadata.size > effectiveSizeLimit(bucket.file_size_limit, this.config.fileSizeLimit)) {
      throw StorageErrors.entityTooLarge();
    }
  }

  async moveObject(
    caller: Caller,
    input: { bucketId: string; sourceKey: unknown; destinationKey: unknown; destinationBucket?: unknown },
  ): Promise<void> {
    const from = { bucketId: bucketIdOrNotFound(input.bucketId), name: validateObjectName(input.sourceKey) };
    const to = {
      bucketId:
        input.destinationBucket === undefined || input.destinationBucket === null
          ? from.bucketId
          : bucketIdOrNotFound(input.destinationBucket),
      name: validateObjectName(input.destinationKey),
    };
    if (from.bucketId === to.bucketId && from.name === to.name) return;
    const source = await this.scoped(caller.scope, (tx) => sql.findObject(tx, from.bucketId, from.name));
    if (!source) throw StorageErrors.noSuchKey();
    await this.checkDestination(to.bucketId, to.name, source.metadata);
    // The blob stays where it is: a move only renames the row (USING on the old name, WITH CHECK on
    // the new one), so it is atomic and never copies bytes.
    const moved = await this.scoped(caller.scope, (tx) => sql.moveObject(tx, from, to));
    if (!moved) throw StorageErrors.noSuchKey();
  }

  async copyObject(
    caller: Caller,
    input: {
      bucketId: string;
      sourceKey: unknown;
      destinationKey: unknown;
      destinationBucket?: unknown;
      upsert: boolean;
    },
  ): Promise<{ id: string; key: string }> {
    const from = { bucketId: bucketIdOrNotFound(input.bucketId), name: validateObjectName(input.sourceKey) };
    const to = {
      bucketId:
        input.destinationBucket === undefined || input.destinationBucket === null
          ? from.bucketId
          : bucketIdOrNotFound(input.destinationBucket),
      name: validateObjectName(input.destinationKey),
    };
    const source = await this.scoped(caller.scope, (tx) => sql.findObject(tx, from.bucketId, from.name));
    if (!source) throw StorageErrors.noSuchKey();
    if (from.bucketId === to.bucketId && from.name === to.name)
      return { id: source.id, key: `${to.bucketId}/${to.name}` };
    await this.checkDestination(to.bucketId, to.name, source.metadata);
    const row: sql.NewObject = {
      bucketId: to.bucketId,
      name: to.name,
      owner: caller.owner,
      version: randomUUID(),
      metadata: source.metadata ? { ...source.metadata, lastModified: new Date().toISOString() } : null,
      userMetadata: source.user_metadata,
    };
    await this.probe(caller.scope, (tx) =>
      input.upsert ? sql.upsertObject(tx, row) : sql.insertObject(tx, row),
    );
    try {
      await this.backend.copy(source.version, row.version);
    } catch (error) {
      if (error instanceof BlobNotFound) {
        this.log.error({ err: error, object: source.id }, 'storage: object row without its blob');
        throw StorageErrors.noSuchKey();
      }
      throw error;
    }
    try {
      const { id, previous } = await this.scoped(caller.scope, async (tx) => {
        const previousVersion = input.upsert
          ? await sql.lockObjectVersion(tx, to.bucketId, to.name)
          : undefined;
        const objectId = input.upsert ? await sql.upsertObject(tx, row) : await sql.insertObject(tx, row);
        return { id: objectId, previous: previousVersion };
      });
      if (previous && previous !== row.version) await this.removeBlobs([previous]);
      return { id, key: `${to.bucketId}/${to.name}` };
    } catch (error) {
      await this.removeBlobs([row.version]);
      throw error;
    }
  }

  // -----------------------------------------------------------------------------------------------
  // Reading
  // -----------------------------------------------------------------------------------------------

  /**
   * An object for download or info. Objects of public buckets are found past RLS (anyone with the
   * URL may read them, as on Supabase); the public route serves public buckets only; otherwise the
   * caller's policies decide, and an object they may not see does not exist.
   */
  async findObject(caller: Caller | null, bucketIdParam: string, nameParam: string): Promise<StoredObject> {
    const bucketId = bucketIdOrNotFound(bucketIdParam);
    const name = validateObjectName(nameParam);
    // One statement answers the common case (a public object); only private buckets need a second
    // look, through the caller's policies.
    const found = await this.scoped(SERVICE_SCOPE, (tx) => sql.findObjectInBucket(tx, bucketId, name));
    if (!found || (caller === null && !found.public)) throw StorageErrors.noSuchBucket();
    const object =
      found.public || caller === null
        ? found.object
        : await this.scoped(caller.scope, (tx) => sql.findObject(tx, bucketId, name));
    if (!object) throw StorageErrors.noSuchKey();
    return object;
  }

  /** GET object/sign/...?token=: the token names this very object and has not expired. */
  async findSignedObject(
    token: unknown,
    bucketIdParam: string,
    nameParam: string,
  ): Promise<{ object: StoredObject; expiresAt: Date; transform: Transform }> {
    const { expiresAt, transformations } = await this.signer.verifyDownload(
      token,
      `${bucketIdParam}/${nameParam}`,
    );
    const bucketId = bucketIdOrNotFound(bucketIdParam);
    const name = validateObjectName(nameParam);
    const object = await this.scoped(SERVICE_SCOPE, (tx) => sql.findObject(tx, bucketId, name));
    if (!object) throw StorageErrors.noSuchKey();
    return { object, expiresAt, transform: transformFromClaim(transformations) };
  }

  /**
   * An object's image transformed (decision 228). The caller found the object exactly as a download
   * does (public, signed or through their policies); the rendition is keyed by its version.
   */
  renderImage(object: StoredObject, transform: Transform, accept: string | undefined): Promise<Rendition> {
    if (!this.renderer) throw new Error('this StorageService renders no images');
    return this.renderer.render(
      {
        version: object.version,
        mimetype: object.metadata.mimetype,
        size: object.metadata.size,
        read: () => this.openBlob(object),
      },
      transform,
      accept,
    );
  }

  async openBlob(object: StoredObject, range?: ByteRange): Promise<Readable> {
    try {
      return await this.backend.read(object.version, range);
    } catch (error) {
      if (error instanceof BlobNotFound) {
        this.log.error({ err: error, object: object.id }, 'storage: object row without its blob');
        throw StorageErrors.noSuchKey();
      }
      throw error;
    }
  }

  async signUrl(
    caller: Caller,
    bucketIdParam: string,
    nameParam: string,
    expiresIn: number,
    transform?: Transform,
  ): Promise<string> {
    const bucketId = bucketIdOrNotFound(bucketIdParam);
    const name = validateObjectName(nameParam);
    checkExpiresIn(expiresIn);
    const object = await this.scoped(caller.scope, (tx) => sql.findObject(tx, bucketId, name));
    if (!object) throw StorageErrors.noSuchKey();
    const path = `${bucketId}/${name}`;
    const seconds = await this.cappedExpiry(bucketId, expiresIn);
    // As upstream: a URL with transformations renders the image, one without downloads it.
    const transformations = transform ? transformToClaim(transform) : '';
    const route = transformations ? 'render/image' : 'object';
    return `/${route}/sign/${path}?token=${await this.signer.signDownload(path, seconds, transformations)}`;
  }

  /**
   * The lifetime a signed download URL gets: what was asked, shortened to the bucket's cap when it has
   * one (decision 154) — the server keeps links of such buckets short whatever a client asks.
   */
  private async cappedExpiry(bucketId: string, expiresIn: number): Promise<number> {
    const cap = await this.scoped(SERVICE_SCOPE, (tx) => sql.signedUrlCap(tx, bucketId));
    return cap === undefined ? expiresIn : Math.min(expiresIn, cap);
  }

  async signUrls(
    caller: Caller,
    bucketIdParam: string,
    paths: string[],
    expiresIn: number,
  ): Promise<{ error: string | null; path: string; signedURL: string | null }[]> {
    const bucketId = bucketIdOrNotFound(bucketIdParam);
    checkExpiresIn(expiresIn);
    const visible = await this.scoped(caller.scope, (tx) => sql.existingNames(tx, bucketId, paths));
    const seconds = await this.cappedExpiry(bucketId, expiresIn);
    return Promise.all(
      paths.map(async (path) => {
        if (!visible.has(path)) {
          return {
            error: 'Either the object does not exist or you do not have access to it',
            path,
            signedURL: null,
          };
        }
        const url = `${bucketId}/${path}`;
        return {
          error: null,
          path,
          signedURL: `/object/sign/${url}?token=${await this.signer.signDownload(url, seconds)}`,
        };
      }),
    );
  }

  async listObjects(
    caller: Caller,
    bucketIdParam: string,
    options: Omit<Parameters<typeof sql.listObjects>[2], 'prefix'> & { prefix: string },
  ): Promise<sql.ListedObject[]> {
    const bucketId = bucketIdOrNotFound(bucketIdParam);
    let prefix = options.prefix;
    if (prefix !== '' && !prefix.endsWith('/')) prefix = `${prefix}/`;
    if (prefix.length > 1024 || hasControlCharacters(prefix + options.search)) {
      throw StorageErrors.invalidRequest('Invalid prefix or search');
    }
    return this.scoped(caller.scope, (tx) => sql.listObjects(tx, bucketId, { ...options, prefix }));
  }

  /**
   * POST object/list-v2 (storage-js listV2): a page of names under `prefix` after the cursor, split
   * into folders and objects as Supabase Storage's `listObjectsV2` does, with the cursor of the next
   * page in its format (base64 of `l:<last name>`, `o:<order>`, `c:<column>`, `a:<last date>` lines).
   */
  async listObjectsV2(
    caller: Caller,
    bucketIdParam: string,
    options: {
      prefix: string;
      delimiter: boolean;
      limit: number;
      cursor: string | undefined;
      sortColumn: 'name' | 'created_at' | 'updated_at' | undefined;
      sortOrder: SortOrder | undefined;
    },
  ): Promise<ListV2Page> {
    const bucketId = bucketIdOrNotFound(bucketIdParam);
    const { prefix } = options;
    if (prefix.length > 1024 || hasControlCharacters(prefix))
      throw StorageErrors.invalidRequest('Invalid prefix');
    const cursor = options.cursor ? decodeListCursor(options.cursor) : undefined;
    const sortColumn = (cursor?.column ?? options.sortColumn ?? 'name') as
      | 'name'
      | 'created_at'
      | 'updated_at';
    const sortOrder = cursor?.order ?? options.sortOrder ?? 'asc';
    const limit = Math.min(options.limit, 1000);
    const rows = await this.scoped(caller.scope, (tx) =>
      sql.listObjectsV2(tx, bucketId, {
        prefix,
        delimiter: options.delimiter,
        limit: limit + 1,
        sortColumn,
        sortOrder,
        after: cursor ? { name: cursor.after, date: cursor.afterDate } : undefined,
      }),
    );
    const page = rows.slice(0, limit);
    const result: ListV2Page = { hasNext: rows.length > limit, folders: [], objects: [] };
    for (const { is_folder, key, ...row } of page) {
      if (is_folder) result.folders.push({ id: null, name: row.name });
      else result.objects.push(options.delimiter ? { key, ...row } : row);
    }
    const last = page.at(-1);
    if (result.hasNext && last) {
      const afterDate = sortColumn === 'name' ? undefined : (last[sortColumn] ?? undefined);
      result.nextCursor = encodeListCursor({
        after: last.name,
        order: sortOrder,
        column: sortColumn,
        afterDate,
      });
      result.nextCursorKey = last.name;
    }
    return result;
  }

  // -----------------------------------------------------------------------------------------------
  // Deleting
  // -----------------------------------------------------------------------------------------------

  /** Deletes the named objects the caller may delete; answers the deleted rows. */
  async deleteObjects(
    caller: Caller,
    bucketIdParam: string,
    names: string[],
  ): Promise<Omit<sql.DeletedObject, 'version'>[]> {
    const bucketId = bucketIdOrNotFound(bucketIdParam);
    const deleted = await this.scoped(caller.scope, (tx) => sql.deleteObjects(tx, bucketId, names));
    await this.removeBlobs(deleted.map((object) => object.version));
    return deleted.map(({ version: _version, ...object }) => object);
  }

  async deleteObject(caller: Caller, bucketIdParam: string, nameParam: string): Promise<void> {
    const name = validateObjectName(nameParam);
    const deleted = await this.deleteObjects(caller, bucketIdParam, [name]);
    if (deleted.length === 0) throw StorageErrors.noSuchKey();
  }
}

function checkExpiresIn(expiresIn: number): void {
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_SIGNED_URL_SECONDS) {
    throw StorageErrors.invalidRequest(
      `expiresIn must be a whole number of seconds from 1 to ${MAX_SIGNED_URL_SECONDS}`,
    );
  }
}
