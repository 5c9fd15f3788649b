// @databases: both — some checks are about PostgreSQL itself (they say so).
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#server/web-build.ts';
import { type SpawnedServer, spawnServer } from '#tests/support/spawn-server.ts';
import { createPostgresDatabase, testDatabase } from '#tests/support/test-server.ts';

/**
 * The server as an operator runs it: a real process started like `npm start`, stopped with signals,
 * killed, misconfigured. These run once, on the embedded tier, except where PostgreSQL is the point.
 */
const running: SpawnedServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function dataDir(options: { migrated?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'highgrade-proc-'));
  dirs.push(dir);
  const template = process.env.HIGHGRADE_PGLITE_TEMPLATE;
  if (options.migrated !== false && template) await cp(template, join(dir, 'db'), { recursive: true });
  return dir;
}

function start(env: Record<string, string>): SpawnedServer {
  const server = spawnServer(env);
  running.push(server);
  return server;
}

async function health(url: string) {
  const response = await fetch(`${url}/health`);
  return { status: response.status, body: await response.json() };
}

const embedded = testDatabase() === 'pglite';

describe.runIf(embedded)('the server process on the embedded database', () => {
  it('starts, serves /health and the app, and stops cleanly on SIGTERM', async () => {
    const dir = await dataDir();
    const server = start({ DATA_DIR: dir });
    const url = await server.ready;
    expect(await health(url)).toEqual({ status: 200, body: { status: 'ok', database: 'embedded' } });
    expect(await (await fetch(`${url}/profile`)).text()).toContain('<div id="root">');
    expect(server.stdout()).toContain('npm run keys');

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });

    // The lock is released and the data survive: the next start re-uses both.
    const keys = await readFile(join(dir, 'keys.json'), 'utf8');
    const again = start({ DATA_DIR: dir });
    expect((await health(await again.ready)).status).toBe(200);
    expect(await readFile(join(dir, 'keys.json'), 'utf8')).toBe(keys);
    again.child.kill('SIGINT');
    expect((await again.exited).code).toBe(0);
  });

  it('refuses a second server on the same DATA_DIR within 2 s, with a clear message', async () => {
    const dir = await dataDir();
    const first = start({ DATA_DIR: dir });
    await first.ready;
    const started = Date.now();
    const second = start({ DATA_DIR: dir });
    const { code } = await second.exited;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(code).not.toBe(0);
    expect(second.stderr().trim()).toBe(
      `highgrade: DATA_DIR ${dir} is already in use by another HighGrade server (pid ${first.child.pid}). ` +
        'Stop that server first, or start this one with another DATA_DIR.',
    );
    expect((await health(await first.ready)).status).toBe(200);
  });

  it('starts again after kill -9, with its data and keys intact', async () => {
    const dir = await dataDir();
    const first = start({ DATA_DIR: dir });
    await first.ready;
    const keys = await readFile(join(dir, 'keys.json'), 'utf8');
    first.child.kill('SIGKILL');
    await first.exited;
    const second = start({ DATA_DIR: dir });
    expect((await health(await second.ready)).status).toBe(200);
    expect(await readFile(join(dir, 'keys.json'), 'utf8')).toBe(keys);
  });

  it('recovers from a first start interrupted while the database was being created', async () => {
    const dir = await dataDir({ migrated: false });
    const first = start({ DATA_DIR: dir });
    // Wait until initialisation is under way, then pull the plug.
    for (let i = 0; i < 200 && !(await readdir(dir)).some((name) => name.startsWith('db.init-')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await readdir(dir)).not.toContain('db');

    const second = start({ DATA_DIR: dir });
    expect((await health(await second.ready)).status).toBe(200);
    expect((await readdir(dir)).filter((name) => name.startsWith('db.init-'))).toEqual([]);
  }, 60_000);
});

describe.runIf(embedded)('bad configuration ends start-up with one clear line', () => {
  async function startupError(env: Record<string, string>) {
    const server = start(env);
    const { code } = await server.exited;
    return { code, lines: server.stderr().trim().split('\n') };
  }

  it.each([
    [
      { PORT: 'abc' },
      'highgrade: Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")',
    ],
    [
      { PGRST_DB_SCHEMAS: 'public,auth' },
      'highgrade: Invalid configuration: PGRST_DB_SCHEMAS must be a comma-separated list of schemas to expose, each once; got "auth" (kept by the platform, never exposed)',
    ],
    [
      { DATABASE_URL: 'postgres://postgres:pw@127.0.0.1:1/nothing' },
      /^highgrade: Cannot reach the database at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/nothing: /,
    ],
    [
      { DATA_DIR: '/etc/hostname/data' },
      'highgrade: DATA_DIR /etc/hostname/data is not a writable directory (ENOTDIR)',
    ],
  ])('%j', async (env, expected) => {
    const { code, lines } = await startupError({ DATA_DIR: await dataDir({ migrated: false }), ...env });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    if (typeof expected === 'string') expect(lines[0]).toBe(expected);
    else expect(lines[0]).toMatch(expected);
  });

  it('a port already taken', async () => {
    const first = start({ DATA_DIR: await dataDir() });
    const port = new URL(await first.ready).port;
    const { code, lines } = await startupError({ DATA_DIR: await dataDir(), PORT: port });
    expect(code).toBe(1);
    expect(lines).toEqual([`highgrade: Port ${port} on 127.0.0.1 is already in use`]);
  });
});

describe.runIf(!embedded)('the server process on PostgreSQL', () => {
  it('starts with DATABASE_URL and reports the mode', async () => {
    const database = await createPostgresDatabase();
    try {
      const server = start({ DATA_DIR: await dataDir({ migrated: false }), DATABASE_URL: database.url });
      expect(await health(await server.ready)).toEqual({
        status: 200,
        body: { status: 'ok', database: 'postgres' },
      });
      // Two processes may share one PostgreSQL database (migrations are serialised by a lock).
      const second = start({ DATA_DIR: await dataDir({ migrated: false }), DATABASE_URL: database.url });
      expect((await health(await second.ready)).status).toBe(200);
      server.child.kill('SIGTERM');
      second.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      expect((await second.exited).code).toBe(0);
    } finally {
      await database.drop();
    }
  });
});

describe.runIf(embedded)('the embedded database keeps every write it acknowledged', () => {
  it('after kill -9 in the middle of a stream of commits', async () => {
    const dir = await dataDir();
    const script = join(PROJECT_ROOT, 'tests/support/pglite-writer.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script, dir], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let acknowledged = 0;
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const numbers = chunk.toString().trim().split('\n').map(Number);
        acknowledged = Math.max(acknowledged, ...numbers);
        if (acknowledged >= 200) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await new Promise((resolve) => child.on('exit', resolve));

    const { openPglite } = await import('#server/db/pglite.ts');
    const db = await openPglite({ dataDir: dir });
    try {
      const { rows } = await db.query<{ max: number; count: number }>(
        'select max(n) as max, count(*)::int as count from public.acks',
      );
      expect(rows[0]?.max).toBeGreaterThanOrEqual(acknowledged);
      expect(rows[0]?.count).toBe(rows[0]?.max);
    } finally {
      await db.close();
    }
  }, 60_000);
});
