import { parse as parseQueryString } from 'node:querystring';
import type { FastifyInstance } from 'fastify';
import type { ServiceOptions } from '../context.ts';
import { registerApiCors } from '../http/cors.ts';
import { authenticate } from '../http/request-auth.ts';
import { startJobs } from '../jobs.ts';
import { createAuth } from './auth.ts';
import { API_VERSION_HEADER, authErrors, requestedApiVersion, sendAuthError, toAuthError } from './errors.ts';
import { JOBS } from './jobs.ts';
import { ROUTES } from './routes/index.ts';

/**
 * /auth/v1 — the GoTrue-compatible authentication service (architecture: server/auth/architecture.md).
 * Every route declares who may call it; the gateway check below runs first, as Supabase's API gateway
 * does in front of GoTrue.
 */
export default async function authService(app: FastifyInstance, { ctx }: ServiceOptions): Promise<void> {
  await registerApiCors(app);
  const deps = createAuth(ctx);

  app.decorateRequest('gateway', null);
  // GoTrue reads a body only where it needs one: auth-js sends `Content-Type: application/json` with
  // no body on POST /logout, which must not be a parse error. Otherwise Fastify's parser, which
  // rejects __proto__ and constructor.prototype keys.
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    return json(request, body as string, done);
  });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 65_536 },
    (_r, body, done) => done(null, parseQueryString(body as string)),
  );

  app.setErrorHandler((error, request, reply) => {
    const apiError = toAuthError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'auth request failed');
    else request.log.debug({ err: error }, 'auth request rejected');
    return sendAuthError(request, reply, apiError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendAuthError(request, reply, authErrors.routeNotFound(request.method, request.url.split('?')[0] ?? '')),
  );

  app.addHook('onRequest', async (request, reply) => {
    // Answers carry tokens and personal data: never stored by browsers or proxies.
    reply.header('cache-control', 'no-store');
    const version = requestedApiVersion(request);
    if (version) reply.header(API_VERSION_HEADER, version);
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'open') return;
    const result = await authenticate(request, ctx.jwt);
    if (!result.ok) {
      const { failure } = result;
      if (failure.kind === 'missing_apikey') throw authErrors.noApiKey();
      if (failure.kind === 'invalid_apikey') throw authErrors.invalidApiKey();
      // A bad bearer token only matters where the route needs the caller; public routes ignore it,
      // as GoTrue does behind the gateway.
      if (access === 'public') return;
      if (failure.kind === 'jwt_expired')
        throw authErrors.badJwt('token has invalid claims: token is expired');
      if (failure.kind === 'unknown_role')
        throw authErrors.badJwt(`unknown role ${JSON.stringify(failure.role.slice(0, 64))}`);
      throw authErrors.badJwt('signature is invalid');
    }
    request.gateway = result.auth;
    if (access === 'admin') {
      if (request.headers.authorization === undefined) throw authErrors.noAuthorization();
      if (result.auth.role !== 'service_role') throw authErrors.notAdmin();
    }
  });

  for (const route of ROUTES) route(app, deps);

  const jobs = startJobs(JOBS, deps, ctx.log, { db: ctx.db });
  app.addHook('onClose', async () => {
    await jobs.stop();
    await deps.mail.close();
  });
}
