import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { prepareDataDir } from './data-dir.ts';
import { type DataDirLock, lockDataDir } from './db/data-dir-lock.ts';
import type { Database, DatabaseLimits } from './db/driver.ts';
import { OperatorError } from './operator-error.ts';
import { ensureWebBuild, WEB_DIST } from './web-build.ts';

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** http://host:port actually bound (PORT=0 picks a free port). */
  url: string;
  close(): Promise<void>;
}

export class ListenError extends OperatorError {}

export interface StartOptions {
  /** true: a new pino logger at config.logLevel; false: silent; or a logger to use. */
  logger?: boolean | FastifyBaseLogger;
  /** Build the web app first when it is missing or stale (what `npm start` does). */
  buildWeb?: boolean;
  webDir?: string;
}

/** What the configuration allows API work on the database (decision 092). */
export function databaseLimits(config: Config): DatabaseLimits {
  return {
    statementTimeoutMs: config.statementTimeoutsMs,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
    perClient: config.dbPoolPerClient,
  };
}

export async function openDatabase(
  config: Config,
  log: { warn(details: object, message: string): void; error(details: object, message: string): void },
): Promise<Database> {
  const limits = databaseLimits(config);
  if (config.databaseUrl) {
    const { openPostgres } = await import('./db/postgres.ts');
    return openPostgres({
      url: config.databaseUrl,
      poolMax: config.dbPoolMax,
      limits,
      onError: (error) => log.error({ err: error }, 'database connection error'),
    });
  }
  const { openPglite } = await import('./db/pglite.ts');
  return openPglite({ dataDir: config.dataDir, limits, log });
}

/**
 * Starts HighGrade: data directory, database (with its lock when embedded), migrations, keys, the
 * web app and the HTTP server. Anything acquired is released again if a later step fails.
 */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  // The data directory and its lock come first, before the heavy modules load, so a second server on
  // the same DATA_DIR is turned away at once.
  await prepareDataDir(config.dataDir);
  const lock: DataDirLock | undefined = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);

  // Then independent strands run at once (decision 086): the app's modules and its Fastify instance;
  // the database, opened then migrated; the keys; the web app's build check. Each waits on the disk,
  // the database or WebAssembly compilation at times, which the others fill.
  const loading = (async () => {
    const [{ buildApp, createFastify }, { JwtVerifier }] = await Promise.all([
      import('./app.ts'),
      import('./http/jwt.ts'),
    ]);
    return { app: createFastify({ config }, options.logger ?? false), buildApp, JwtVerifier };
  })();
  // The logger is the app's, which exists once its modules are loaded; what is logged before waits.
  const later = (write: (appLog: FastifyBaseLogger) => void) =>
    void loading.then(
      ({ app }) => write(app.log),
      () => {},
    );
  const log = {
    info: (message: string) => later((appLog) => appLog.info(message)),
    warn: (details: object, message: string) => later((appLog) => appLog.warn(details, message)),
    error: (details: object, message: string) => later((appLog) => appLog.error(details, message)),
  };
  const opening = openDatabase(config, log);
  const migrating = opening.then(async (db) => {
    const { migrate } = await import('./db/migrate.ts');
    const applied = await migrate(db, { log: log.info });
    if (applied.length > 0) log.info(`${applied.length} schema file(s) applied`);
    const { applySamples } = await import('./db/samples.ts');
    await applySamples(db, config.demoContent);
  });
  const resolvingKeys = import('./keys.ts').then(({ resolveKeys }) => resolveKeys(config));
  const building = options.buildWeb ? ensureWebBuild(log.info) : undefined;

  const strands = await Promise.allSettled([loading, building, opening, migrating, resolvingKeys]);
  const failed = strands.find((strand) => strand.status === 'rejected');
  if (failed) {
    const [loaded, , opened] = strands;
    if (opened.status === 'fulfilled') await opened.value.close().catch(() => {});
    if (loaded.status === 'fulfilled') await loaded.value.app.close().catch(() => {});
    await lock?.release();
    throw failed.reason;
  }
  const { app, buildApp, JwtVerifier } = await loading;
  const db = await opening;
  const keys = await resolvingKeys;

  const cleanup: (() => Promise<void>)[] = [];
  if (lock) cleanup.push(() => lock.release());
  cleanup.push(() => db.close());
  const release = async () => {
    for (const step of cleanup.splice(0).reverse()) {
      await step().catch((error) => app.log.error({ err: error }, 'shutdown step failed'));
    }
  };

  try {
    const ctx: AppContext = { config, db, keys, jwt: await JwtVerifier.forKeys(keys), log: app.log };
    await buildApp(app, ctx, options.webDir ?? WEB_DIST);
    if (lock) {
      // Where `npm run backup` asks this server for a snapshot (decision 215).
      const { openControlSocket } = await import('./backup/control.ts');
      const control = await openControlSocket(db, config.dataDir, app.log);
      cleanup.push(() => control.close());
    }

    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new ListenError(`Port ${config.port} on ${config.host} is already in use`);
      if (code === 'EACCES') throw new ListenError(`Not allowed to listen on ${config.host}:${config.port}`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
        throw new ListenError(`HOST ${config.host} is not an address of this machine`);
      }
      throw error;
    }
    cleanup.push(() => closeGracefully(app, SHUTDOWN_GRACE_MS));

    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    return {
      app,
      ctx,
      url: `http://${host}:${port}`,
      // Stop accepting, let in-flight requests finish, then close the database and drop the lock.
      close: release,
    };
  } catch (error) {
    await release();
    await app.close().catch(() => {});
    throw error;
  }
}

/** How long shutdown waits for requests in flight before cutting their connections. */
const SHUTDOWN_GRACE_MS = 5000;

/**
 * Stops accepting connections and lets requests in flight finish, but not forever: a client that
 * stops reading a download (or a slow upload) would otherwise hold shutdown until the request timeout.
 */
async function closeGracefully(app: FastifyInstance, graceMs: number): Promise<void> {
  const closing = app.close();
  const timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
  timer.unref();
  try {
    await closing;
  } finally {
    clearTimeout(timer);
  }
}
