import type { FastifyInstance } from 'fastify';
import type { ServiceOptions } from '../context.ts';
import { registerApiCors } from '../http/cors.ts';
import { registerServiceErrors, renderers } from '../http/errors.ts';
import { openBackend } from '../storage/backends/index.ts';
import { BlobTrash } from './blob-trash.ts';
import { setExportRule } from './db.ts';
import { mapError } from './errors.ts';
import { EXPORT_RATE_ACTION } from './gdpr-export.ts';
import { requireUsers } from './http.ts';
import type { FunctionRouteDeps } from './routes/deps.ts';
import gdprDataDeletion from './routes/gdpr-data-deletion.ts';
import gdprDataExport from './routes/gdpr-data-export.ts';

/** Request bodies of the functions are small JSON objects ({"confirm_deletion": true}). */
const BODY_LIMIT = 16 * 1024;
/** Set-aside blobs of an operation this old belong to a crashed one (decision 072). */
const TRASH_LEASE_SECONDS = 3600;
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

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

  const backend = await openBackend(ctx.config, (message, error) => ctx.log.warn({ err: error }, message));
  const trash = new BlobTrash(ctx.db, backend, ctx.log);
  const deps: FunctionRouteDeps = {
    export: {
      db: ctx.db,
      apiUrl: ctx.config.apiExternalUrl,
      exportsPerHour: ctx.config.functions.gdprExportsPerHour,
    },
    deletion: {
      db: ctx.db,
      trash,
      log: ctx.log,
      secret: ctx.keys.jwtSecret,
      outboxDataDir: ctx.config.smtp.host ? undefined : ctx.config.dataDir,
    },
  };

  // The export limit is a server setting; the rate-limit procedure reads it from its rules table.
  await setExportRule(ctx.db, EXPORT_RATE_ACTION, ctx.config.functions.gdprExportsPerHour);

  requireUsers(app, ctx);
  gdprDataExport(app, deps);
  gdprDataDeletion(app, deps);

  // Finish what a crashed or failed deletion left behind: now, and every few minutes.
  const sweep = () =>
    trash
      .sweep(TRASH_LEASE_SECONDS)
      .catch((error) => ctx.log.warn({ err: error }, 'functions: blob trash sweep failed'));
  let sweeping = sweep();
  const timer = setInterval(() => {
    sweeping = sweeping.then(sweep);
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await sweeping;
    await backend.close();
  });
}
