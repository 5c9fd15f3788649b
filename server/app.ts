import { createHash, timingSafeEqual } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import authService from './auth/plugin.ts';
import type { AppContext } from './context.ts';
import functionsService from './functions/plugin.ts';
import { registerDatabaseClient } from './http/database-client.ts';
import { type PublicConfig, spaPlugin } from './http/spa.ts';
import { collectDatabase, httpDuration, httpRequests, registry } from './metrics.ts';
import realtimeService from './realtime/plugin.ts';
import restService from './rest/plugin.ts';
import { createPageHeads } from './seo/pages.ts';
import seoPlugin from './seo/plugin.ts';
import storageService from './storage/plugin.ts';

export const SERVICES = [
  { prefix: '/auth/v1', plugin: authService },
  { prefix: '/rest/v1', plugin: restService },
  { prefix: '/storage/v1', plugin: storageService },
  { prefix: '/realtime/v1', plugin: realtimeService },
  { prefix: '/functions/v1', plugin: functionsService },
] as const;

/** Responses that are not the web app's page get a policy that forbids everything. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

export function createFastify(
  ctx: Pick<AppContext, 'config'>,
  logger: FastifyBaseLogger | boolean,
): FastifyInstance {
  const options = {
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle' as const,
    return503OnClosing: true,
    requestTimeout: 120_000,
    routerOptions: { maxParamLength: 1000, ignoreDuplicateSlashes: false },
  };
  if (typeof logger === 'object')
    return Fastify({ ...options, loggerInstance: logger }) as unknown as FastifyInstance;
  return Fastify({
    ...options,
    logger: logger && { level: ctx.config.logLevel },
  }) as unknown as FastifyInstance;
}

/**
 * Builds the whole server: security headers and compression for every response, /health, the five
 * platform services under their prefixes, and the web app (with history fallback) for the rest.
 */
export async function buildApp(
  app: FastifyInstance,
  ctx: AppContext,
  webDir: string,
): Promise<FastifyInstance> {
  await app.register(helmet, {
    contentSecurityPolicy: false, // set per response below: the page's carries a fresh nonce
    crossOriginEmbedderPolicy: false,
    hsts: ctx.config.siteUrl.startsWith('https:') ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', API_CSP);
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug(
      { method: request.method, url: request.url, status: reply.statusCode, ms: reply.elapsedTime },
      'request',
    );
    // By route template (bounded), never by URL (decision 177).
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { service: serviceOf(route), route, status: reply.statusCode };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });

  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    // Dynamic answers are compressed on the fly: favour speed (static files are pre-compressed).
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });

  registerDatabaseClient(app);
  app.get('/health', async (_request, reply) => {
    try {
      // `busy`: every connection is taken by work within its limits; the database still answers.
      if ((await ctx.db.ping()) === 'busy') return { status: 'ok', database: ctx.db.mode, busy: true };
      return { status: 'ok', database: ctx.db.mode };
    } catch (error) {
      ctx.log.error({ err: error }, 'health check: database unavailable');
      return reply.status(503).send({ status: 'unavailable', database: ctx.db.mode });
    }
  });

  // Readiness, distinct from liveness (/health): this process takes traffic only while its database
  // is migrated (start-up listens after migrating) and answers, and its LISTEN connection is open
  // (without it, it would miss schema reloads and other processes' realtime messages; decision 177).
  app.get('/ready', async (_request, reply) => {
    const listener = ctx.db.listening;
    let database = true;
    try {
      await ctx.db.ping();
    } catch {
      database = false;
    }
    if (listener && database) return { status: 'ready' };
    return reply.status(503).send({ status: 'not ready', database, listener });
  });

  // Prometheus metrics behind METRICS_TOKEN (a bearer token); without the setting there is none.
  collectDatabase(ctx.db);
  const metricsToken = ctx.config.metricsToken;
  if (metricsToken !== undefined) {
    const expected = createHash('sha256').update(`Bearer ${metricsToken}`).digest();
    app.get('/metrics', async (request, reply) => {
      const given = createHash('sha256')
        .update(request.headers.authorization ?? '')
        .digest();
      if (!timingSafeEqual(given, expected)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send({ error: 'metrics need the METRICS_TOKEN as a bearer token' });
      }
      return reply.header('content-type', registry.contentType).send(await registry.metrics());
    });
  }

  for (const service of SERVICES) {
    await app.register(service.plugin, { prefix: service.prefix, ctx });
  }

  const publicConfig: PublicConfig = {
    supabaseUrl: ctx.config.apiExternalUrl ?? null,
    anonKey: ctx.keys.anonKey,
    siteName: ctx.config.siteName,
    supportEmail: ctx.config.supportEmail,
    autoSignOutMs: ctx.config.autoSignOutMs,
    payments: ctx.config.payments.stripe ? 'stripe' : 'demo',
  };
  const site = { siteUrl: ctx.config.siteUrl, siteName: ctx.config.siteName };
  await app.register(seoPlugin, { ctx, site });
  await app.register(spaPlugin, {
    webDir,
    publicConfig,
    socialSignIn: ctx.config.oauth !== undefined,
    site,
    pageHeads: createPageHeads({ db: ctx.db, site, indexing: ctx.config.searchIndexing }),
  });
  return app;
}

/** The service a route belongs to, for metrics labels: `rest` for `/rest/v1/:table`, `web` otherwise. */
function serviceOf(route: string): string {
  for (const service of SERVICES) {
    if (route.startsWith(`${service.prefix}/`) || route === service.prefix)
      return service.prefix.split('/')[1] ?? 'web';
  }
  if (route === '/health' || route === '/ready' || route === '/metrics') return 'server';
  return route === 'unmatched' ? 'unmatched' : 'web';
}
