import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerKeys } from './clients.ts';
import { freshDatabase } from './databases.ts';
import { spawnServer } from './spawn-server.ts';
import { apiKey } from './tokens.ts';

/**
 * The black-box harness of tests/compat: the real server in a process of its own, started as
 * `npm start` starts it, on a fresh DATA_DIR and a fresh database of the tier under test. A test gets
 * back what a Supabase project's dashboard shows — the URL, the API keys and the JWT secret — and the
 * data directory (the mail outbox, the stored files), never the server's modules or its database.
 */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Limits high enough that a test file's own traffic never trips them (rate limits have own tests). */
export const RELAXED_LIMITS: Record<string, string> = {
  RATE_LIMIT_EMAIL_SENT: '100000',
  RATE_LIMIT_SIGN_IN_SIGN_UPS: '100000',
  RATE_LIMIT_TOKEN_REFRESH: '100000',
  RATE_LIMIT_VERIFY: '100000',
  RATE_LIMIT_OTP: '100000',
  RATE_LIMIT_EMAIL_PER_CLIENT: '100000',
  RATE_LIMIT_EMAIL_PER_RECIPIENT: '100000',
  RATE_LIMIT_ANONYMOUS_USERS: '100000',
  RATE_LIMIT_PASSKEY: '100000',
  SIGN_IN_FAILURES_BEFORE_DELAY: '1000',
  SMTP_MAX_FREQUENCY: '0',
};

export interface ServerProcess extends ServerKeys {
  /** SITE_URL: the server's own address, so mailed links and OAuth callbacks point at it. */
  siteUrl: string;
  /** JWT_SECRET, for tests that need a forged, expired or odd token (tests/support/tokens.ts). */
  jwtSecret: string;
  dataDir: string;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

export interface ServerProcessOptions {
  /**
   * SQL run on the migrated database before the server starts (a test schema of its own, as a
   * project's migration would add it). Only tests of the data API itself need this.
   */
  sql?: string;
}

async function prepareDatabase(settings: Record<string, string>, sql: string): Promise<void> {
  // The one use of the server's own modules here: the schema is arranged before the server runs.
  const { migrate } = await import('#server/db/migrate.ts');
  const db = settings.DATABASE_URL
    ? await (await import('#server/db/postgres.ts')).openPostgres({ url: settings.DATABASE_URL, poolMax: 1 })
    : await (await import('#server/db/pglite.ts')).openPglite({ dataDir: settings.DATA_DIR as string });
  try {
    await migrate(db);
    await db.exec(sql);
  } finally {
    await db.close();
  }
}

/**
 * Starts the server with `env` on top of relaxed rate limits (RELAXED_LIMITS) and its own address as
 * SITE_URL. Stop it with close().
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const jwtSecret = randomBytes(48).toString('base64url');
  let lastError: unknown;
  // The port is chosen before the server binds it; on the rare collision, try another.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-compat-'));
    const cleanup: (() => Promise<void>)[] = [() => rm(dataDir, { recursive: true, force: true })];
    const runCleanup = async () => {
      for (const step of cleanup.reverse()) await step();
    };
    const port = await freePort();
    const siteUrl = `http://127.0.0.1:${port}`;
    const settings: Record<string, string> = {
      ...RELAXED_LIMITS,
      SITE_URL: siteUrl,
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: 'warn',
    };
    try {
      const database = await freshDatabase(dataDir);
      cleanup.push(database.drop);
      if (database.url) settings.DATABASE_URL = database.url;
      if (options.sql) await prepareDatabase(settings, options.sql);
    } catch (error) {
      await runCleanup();
      throw error;
    }
    const server = spawnServer(settings);
    let closing = false;
    // A server that dies under a test says why, instead of leaving only "connection refused".
    server.exited.then(({ code, signal }) => {
      if (!closing) process.stderr.write(`test server exited (${code ?? signal}):\n${server.stderr()}\n`);
    });
    try {
      const url = await server.ready;
      return {
        url: url.replace(/\/$/, ''),
        siteUrl,
        anonKey: await apiKey(jwtSecret, 'anon'),
        serviceRoleKey: await apiKey(jwtSecret, 'service_role'),
        jwtSecret,
        dataDir,
        stderr: server.stderr,
        async close() {
          closing = true;
          if (server.child.exitCode === null && server.child.signalCode === null)
            server.child.kill('SIGTERM');
          await server.exited;
          await runCleanup();
        },
      };
    } catch (error) {
      lastError = error;
      await runCleanup();
      if (!/in use/.test(String((error as Error).message))) throw error;
    }
  }
  throw lastError;
}
