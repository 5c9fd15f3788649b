import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';
import { lockDataDir } from '#server/db/data-dir-lock.ts';
import { startServer } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';
import { testDatabase } from '#tests/support/test-server.ts';

/**
 * After the data-dir lock, start-up runs its steps at once (decision 086): when one fails, what the
 * others acquired — the open database, the lock — is released before the error comes out, so the
 * same process (or the next one) can start on the same DATA_DIR.
 */
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function migratedDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'highgrade-start-'));
  dirs.push(dir);
  const template = process.env.HIGHGRADE_PGLITE_TEMPLATE;
  if (!template) throw new Error('the integration setup provides a migrated PGlite template');
  await cp(template, join(dir, 'db'), { recursive: true });
  return dir;
}

const settings = (dataDir: string) => ({
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
});

describe.runIf(testDatabase() === 'pglite')('a start-up step that fails', () => {
  it('releases the database and the lock the other steps acquired meanwhile', async () => {
    const dataDir = await migratedDataDir();
    // The keys step fails while the database opens and migrates next to it.
    const failing = startServer(loadConfig({ ...settings(dataDir), ANON_KEY: 'not-a-jwt' }), {
      webDir: WEB_DIST,
    });
    await expect(failing).rejects.toThrow(ConfigError);
    await expect(failing).rejects.toThrow(/ANON_KEY must be a JWT signed with JWT_SECRET/);

    const lock = await lockDataDir(dataDir);
    await lock.release();
    const server = await startServer(loadConfig(settings(dataDir)), { webDir: WEB_DIST });
    try {
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
    // Two start-ups on a migrated PGlite directory: on a loaded machine this passed the default 30 s.
  }, 120_000);

  it('releases them when the app cannot be built either', async () => {
    const dataDir = await migratedDataDir();
    const empty = await mkdtemp(join(tmpdir(), 'highgrade-no-web-'));
    dirs.push(empty);
    await expect(startServer(loadConfig(settings(dataDir)), { webDir: empty })).rejects.toThrow(
      /index\.html/,
    );
    const lock = await lockDataDir(dataDir);
    await lock.release();
  });
});
