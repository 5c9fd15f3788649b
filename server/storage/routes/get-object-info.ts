import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf, objectParams } from '../http/caller.ts';
import type { StorageDeps, StoredObject } from '../storage.ts';

/** The body of an info answer, as Supabase's InfoRenderer (storage-js info camelises it). */
function infoOf(object: StoredObject) {
  return {
    id: object.id,
    name: object.name,
    version: object.version,
    bucket_id: object.bucket_id,
    size: object.metadata?.size ?? null,
    content_type: object.metadata?.mimetype ?? null,
    cache_control: object.metadata?.cacheControl ?? null,
    etag: object.metadata?.eTag ?? null,
    metadata: object.user_metadata,
    last_modified: object.updated_at,
    created_at: object.created_at,
  };
}

/**
 * GET /object/info/:bucketName/* (also /info/authenticated/ and /info/public/) — an object's
 * details (storage-js info): size, type, cache control, ETag, user metadata, dates.
 */
export default function getObjectInfo(app: FastifyInstance, { storage }: StorageDeps): void {
  const handler = (asCaller: boolean) => async (request: FastifyRequest) => {
    const caller = asCaller ? callerOf(request) : null;
    const { bucketName, name } = objectParams(request);
    return infoOf(await storage.findObject(caller, bucketName, name));
  };
  const options = { exposeHeadRoute: false };
  app.get(
    '/object/info/public/:bucketName/*',
    { ...options, config: { storagePublic: true } },
    handler(false),
  );
  app.get('/object/info/authenticated/:bucketName/*', options, handler(true));
  app.get('/object/info/:bucketName/*', options, handler(true));
}
