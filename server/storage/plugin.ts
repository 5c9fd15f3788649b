import type { FastifyError, FastifyInstance } from 'fastify';
import type { ServiceOptions } from '../context.ts';
import { registerApiCors } from '../http/cors.ts';
import { type ApiError, registerServiceErrors, renderers } from '../http/errors.ts';
import { fromDatabaseError, StorageErrors } from './errors.ts';
import { requireCallers } from './http/caller.ts';
import { ROUTES, UPLOAD_ROUTES } from './routes/index.ts';
import { createStorage } from './storage.ts';

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

  const deps = await createStorage(ctx);
  app.addHook('onClose', () => deps.storage.close());
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
