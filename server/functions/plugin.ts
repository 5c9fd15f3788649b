import type { FastifyInstance } from 'fastify';
import type { ServiceOptions } from '../context.ts';
import { registerApiCors } from '../http/cors.ts';
import { registerServiceErrors, renderers } from '../http/errors.ts';
import { startJobs } from '../jobs.ts';
import { mapError } from './errors.ts';
import { createFunctions } from './functions.ts';
import { requireUsers } from './http.ts';
import { functionJobs } from './jobs.ts';
import { ROUTES } from './routes/index.ts';

/** Request bodies of the functions are small JSON objects ({"confirm_deletion": true}). */
const BODY_LIMIT = 16 * 1024;

/** /functions/v1 — the product's server functions (architecture.md beside this file). */
export default async function functionsService(app: FastifyInstance, { ctx }: ServiceOptions): Promise<void> {
  await registerApiCors(app);
  registerServiceErrors(app, renderers.plain, { mapError });

  // JSON only; an empty body is no body (auth-js and the web app send the JSON content type on a POST
  // without one). Fastify's own parser underneath refuses __proto__ and constructor.prototype keys.
  app.removeAllContentTypeParsers();
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (request, body, done) => {
      if (typeof body !== 'string' || body.trim() === '') return done(null, undefined);
      return json(request, body, done);
    },
  );

  const deps = await createFunctions(ctx);
  requireUsers(app, ctx);
  for (const route of ROUTES) route(app, deps);

  const jobs = startJobs(functionJobs(deps), deps, ctx.log, { db: ctx.db });
  app.addHook('onClose', async () => {
    deps.news.shutdown.abort();
    deps.quotes.shutdownController.abort();
    await jobs.stop();
    await deps.close();
  });
}
