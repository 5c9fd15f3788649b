import type { FastifyInstance } from 'fastify';
import type { ServiceOptions } from '../context.ts';
import { registerApiCors } from '../http/cors.ts';
import { registerServiceErrors, renderers } from '../http/errors.ts';
import { mapRestError } from './errors.ts';
import { createRest } from './rest.ts';
import { ROUTES } from './routes/index.ts';

/** Largest request body the data API reads (bulk inserts), in bytes. */
export const REST_BODY_LIMIT = 10 * 1024 * 1024;

/** /rest/v1 — the PostgREST-compatible data API. */
export default async function restService(app: FastifyInstance, options: ServiceOptions): Promise<void> {
  await registerApiCors(app);
  registerServiceErrors(app, renderers.rest, { mapError: (error) => mapRestError(error, REST_BODY_LIMIT) });

  // Bodies are read as text: the pipeline parses JSON/CSV/forms itself, to answer in PostgREST's
  // words and to hand JSON to PostgreSQL exactly as sent (no precision lost on big numbers).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: REST_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );
  // Bytes stay bytes: a function's single unnamed bytea parameter takes them as sent.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: REST_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  const deps = await createRest(options.ctx);
  app.addHook('onClose', () => deps.service.close());
  for (const route of ROUTES) route(app, deps);
}
