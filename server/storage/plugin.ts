import type { FastifyError, FastifyInstance } from 'fastify';
import type { ServiceOptions } from '../context.ts';
import { registerApiCors } from '../http/cors.ts';
import { type ApiError, registerServiceErrors, renderers } from '../http/errors.ts';
import { openBackend } from './backends/index.ts';
import { fromDatabaseError, StorageErrors } from './errors.ts';
import { requireCallers, type StorageRouteDeps } from './http/context.ts';
import copyObject from './routes/copy-object.ts';
import createBucket from './routes/create-bucket.ts';
import createObject from './routes/create-object.ts';
import createSignedUploadUrl from './routes/create-signed-upload-url.ts';
import createSignedUrl from './routes/create-signed-url.ts';
import createSignedUrls from './routes/create-signed-urls.ts';
import deleteBucket from './routes/delete-bucket.ts';
import deleteObject from './routes/delete-object.ts';
import deleteObjects from './routes/delete-objects.ts';
import emptyBucket from './routes/empty-bucket.ts';
import getBucket from './routes/get-bucket.ts';
import getObject from './routes/get-object.ts';
import getObjectInfo from './routes/get-object-info.ts';
import getPublicObject from './routes/get-public-object.ts';
import getSignedObject from './routes/get-signed-object.ts';
import listBuckets from './routes/list-buckets.ts';
import listObjects from './routes/list-objects.ts';
import moveObject from './routes/move-object.ts';
import updateBucket from './routes/update-bucket.ts';
import updateObject from './routes/update-object.ts';
import uploadToSignedUrl from './routes/upload-to-signed-url.ts';
import { StorageService } from './storage.ts';
import { SignedUrls } from './tokens.ts';

type Route = (app: FastifyInstance, deps: StorageRouteDeps) => void;

/** Routes with JSON (or no) bodies. */
const ROUTES: Route[] = [
  listBuckets,
  getBucket,
  createBucket,
  updateBucket,
  emptyBucket,
  deleteBucket,
  createSignedUploadUrl,
  moveObject,
  copyObject,
  createSignedUrl,
  createSignedUrls,
  getSignedObject,
  getPublicObject,
  getObjectInfo,
  getObject,
  listObjects,
  deleteObjects,
  deleteObject,
];

/** Routes whose body is a file, read as a stream. */
const UPLOAD_ROUTES: Route[] = [createObject, updateObject, uploadToSignedUrl];

/** Errors raised outside the catalogue: request validation, and database errors that escaped. */
function mapError(error: unknown): ApiError | undefined {
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation) return StorageErrors.invalidRequest(fastifyError.message ?? 'Invalid request');
  return fromDatabaseError(error);
}

/** /storage/v1 — the Supabase-Storage-compatible file service (see architecture.md beside this file). */
export default async function storageService(app: FastifyInstance, { ctx }: ServiceOptions): Promise<void> {
  await registerApiCors(app);
  registerServiceErrors(app, renderers.storage, { mapError });

  const backend = await openBackend(ctx.config, (message, error) => ctx.log.warn({ err: error }, message));
  app.addHook('onClose', () => backend.close());
  const storage = new StorageService(
    ctx.db,
    backend,
    ctx.config.storage,
    new SignedUrls(ctx.keys.jwtSecret),
    ctx.log,
  );
  const deps: StorageRouteDeps = { ctx, storage };
  requireCallers(app, ctx);

  for (const route of ROUTES) route(app, deps);

  await app.register(async (uploads) => {
    // Upload bodies are never parsed: the request stream goes to the handler as it arrives (for
    // multipart, busboy reads it there), so nothing is buffered and the size limit applies while
    // streaming. Fastify's body limit does not apply either; the service's own limits do.
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    for (const route of UPLOAD_ROUTES) route(uploads, deps);
  });
}
