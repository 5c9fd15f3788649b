import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '#server/config.ts';
import type { Database } from '#server/db/driver.ts';
import { migrate } from '#server/db/migrate.ts';
import { openPglite } from '#server/db/pglite.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { type RunningServer, startServer } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';
import { copyPgliteTemplate, createPostgresDatabase, freshDatabase, testDatabase } from './databases.ts';
import { freePort, RELAXED_LIMITS } from './server-process.ts';

export interface TestServer {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  dataDir: string;
  /** Direct database access for arranging data and checking results (as the superuser). */
  db: RunningServer['ctx']['db'];
  server: RunningServer;
  close(): Promise<void>;
}

export { createPostgresDatabase, type TestDatabase, testDatabase } from './databases.ts';

/**
 * Starts the real server in this process on a free port, on a fresh database of the tier under test
 * (a copy of the migrated PGlite template, or a new database on the PostgreSQL server), with a fresh
 * DATA_DIR. `env` adds or overrides configuration as the environment would.
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-test-'));
  const cleanup: (() => Promise<void>)[] = [() => rm(dataDir, { recursive: true, force: true })];
  const settings: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // Tests start from an empty product; a test about sample content asks for it (DEMO_CONTENT: 'true').
    DEMO_CONTENT: 'false',
    ...env,
  };
  const database = await freshDatabase(dataDir);
  cleanup.push(database.drop);
  if (database.url) settings.DATABASE_URL = database.url;
  try {
    const server = await startServer(loadConfig(settings), {
      logger: false,
      webDir: process.env.HIGHGRADE_WEB_DIR ?? WEB_DIST,
    });
    const { keys } = server.ctx;
    return {
      url: server.url,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      jwtSecret: keys.jwtSecret,
      dataDir,
      db: server.ctx.db,
      server,
      async close() {
        await server.close();
        for (const step of cleanup.reverse()) await step();
      },
    };
  } catch (error) {
    for (const step of cleanup.reverse()) await step();
    throw error;
  }
}

/**
 * A migrated database of the tier under test without a server around it, for tests of the database
 * layer itself. PGlite starts from the template copy; PostgreSQL from a new empty database.
 */
export async function openTestDatabase(): Promise<{ db: Database; dataDir: string; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-db-'));
  let db: Database;
  let drop = async () => {};
  if (testDatabase() === 'postgres') {
    const database = await createPostgresDatabase(process.env.HIGHGRADE_PG_TEMPLATE);
    drop = database.drop;
    db = await openPostgres({ url: database.url, poolMax: 4 });
  } else {
    const template = process.env.HIGHGRADE_PGLITE_TEMPLATE;
    if (template) await copyPgliteTemplate(template, dataDir);
    db = await openPglite({ dataDir });
  }
  await migrate(db);
  return {
    db,
    dataDir,
    async close() {
      await db.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The in-process server with its own address as SITE_URL (mailed links and OAuth callbacks point at it). */
export interface AuthTestServer extends TestServer {
  siteUrl: string;
}

export async function startAuthServer(env: Record<string, string> = {}): Promise<AuthTestServer> {
  let lastError: unknown;
  // The port is chosen before the server binds it; on the rare collision, try another.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freePort();
    const siteUrl = `http://127.0.0.1:${port}`;
    try {
      const server = await startTestServer({
        ...RELAXED_LIMITS,
        SITE_URL: siteUrl,
        ...env,
        PORT: String(port),
      });
      return { ...server, siteUrl };
    } catch (error) {
      lastError = error;
      if (!String((error as Error).message).includes('already in use')) throw error;
    }
  }
  throw lastError;
}
