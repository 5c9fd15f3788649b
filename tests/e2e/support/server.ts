import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgliteTemplate } from '#tests/support/database-templates.ts';
import { copyPgliteTemplate } from '#tests/support/databases.ts';
import { freePort } from '#tests/support/server-process.ts';
import { spawnServer } from '#tests/support/spawn-server.ts';
import { apiKey } from '#tests/support/tokens.ts';

/** A server for the browser tests: the real one (`npm start`'s entry point) on a fresh DATA_DIR. */
export interface E2eServer {
  url: string;
  dataDir: string;
  anonKey: string;
  serviceRoleKey: string;
  stop(): Promise<void>;
}

/**
 * Starts a server. Its SITE_URL is its own address (mailed links and the social provider's callback
 * point at it), and it trusts X-Forwarded-For from loopback (TRUST_PROXY) as it would behind a
 * proxy, so each test can be its own client address: the product's per-address rate limits
 * (3 sign-ups, 5 sign-ins an hour, product §auth-rules) then apply to one test, not to the whole suite.
 */
export async function startE2eServer(
  env: Record<string, string> = {},
  options: { hostname?: string } = {},
): Promise<E2eServer> {
  const template = await pgliteTemplate();
  const jwtSecret = randomBytes(48).toString('base64url');
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-e2e-'));
    await copyPgliteTemplate(template, dataDir);
    const port = await freePort();
    // `localhost` for WebAuthn, whose relying-party id must be a domain name (not an IP address).
    const url = `http://${options.hostname ?? '127.0.0.1'}:${port}`;
    const server = spawnServer({
      DATA_DIR: dataDir,
      PORT: String(port),
      SITE_URL: url,
      JWT_SECRET: jwtSecret,
      TRUST_PROXY: '127.0.0.1',
      // One instance-wide budget for all the suite's mail; the per-address limits stay as shipped.
      RATE_LIMIT_EMAIL_SENT: '10000',
      // Browser tests are about the product, not the database gate (tests/integration/database-limits
      // holds its 503s): on a busy two-core machine two browsers share one embedded connection, so a
      // request waits up to 10 s for it instead of 1 s.
      DB_ACQUIRE_TIMEOUT_MS: '10000',
      // Pages start without sample content; a test about samples starts a server with DEMO_CONTENT=true
      // (decision 105).
      DEMO_CONTENT: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    });
    try {
      await server.ready;
    } catch (error) {
      lastError = error;
      await rm(dataDir, { recursive: true, force: true });
      if (String((error as Error).message).includes('in use')) continue;
      throw error;
    }
    return {
      url,
      dataDir,
      anonKey: await apiKey(jwtSecret, 'anon'),
      serviceRoleKey: await apiKey(jwtSecret, 'service_role'),
      async stop() {
        server.child.kill('SIGTERM');
        await server.exited;
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  throw lastError;
}
