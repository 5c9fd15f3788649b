import { spawn } from 'node:child_process';
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, WEB_BUILD_SOURCES } from '#server/web-build.ts';
import { type SpawnedServer, spawnServer } from '#tests/support/spawn-server.ts';
import { testDatabase } from '#tests/support/test-server.ts';
import { ensureServerBuild, serverBuildIsStale } from '../../scripts/server-build.mjs';

/**
 * `npm start` runs the server from a bundle it builds when missing or stale (decision 086). These
 * check the rebuild rule and the bundle's behaviour on copies of the project, so the real .build/
 * the other tests start from is left alone; and that the real bundle finds the migrations.
 */
const dirs: string[] = [];
const running: SpawnedServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A copy of what the bundle is built from, with node_modules linked. */
async function projectCopy(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'highgrade-launcher-'));
  dirs.push(root);
  // With their times, as a checkout has them before its first start: a copy stamped "now" could carry
  // a time no earlier than the build that follows within the same clock tick (the copy takes
  // milliseconds on tmpfs, decision 264), and the fresh bundle would read as stale.
  for (const path of ['server', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.base.json']) {
    await cp(join(PROJECT_ROOT, path), join(root, path), { recursive: true, preserveTimestamps: true });
  }
  // The server's imports from the web app — the app's route list (decision 170) and the refusals'
  // sentences (decision 180) — with their times: they are also sources of the web build, which a test
  // links rather than rebuilds.
  for (const shared of ['web/src/app/route-paths.ts', 'web/src/lib/refusals.ts']) {
    await cp(join(PROJECT_ROOT, shared), join(root, shared), { preserveTimestamps: true });
  }
  for (const dir of ['web/src/app', 'web/src/lib', 'web/src']) {
    const original = await stat(join(PROJECT_ROOT, dir));
    await utimes(join(root, dir), original.atime, original.mtime);
  }
  await symlink(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  return root;
}

/** Sets a file's modification time a little ahead, as an edit made after the last build would. */
async function touch(path: string): Promise<void> {
  const later = new Date(Date.now() + 5000);
  await utimes(path, later, later);
}

/** The bundle's JavaScript, all chunks. */
async function bundledCode(root: string): Promise<string> {
  const dir = join(root, '.build/server');
  const names = (await readdir(dir)).filter((name) => name.endsWith('.js'));
  return (await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')))).join('\n');
}

function run(script: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

describe.runIf(testDatabase() === 'pglite')('the server bundle', () => {
  it('is built when missing and rebuilt when a source changes, is added or is removed', async () => {
    const root = await projectCopy();
    const builds: string[] = [];
    const log = (message: string) => builds.push(message);

    const entry = await ensureServerBuild(log, root);
    expect(entry).toBe(join(root, '.build/server/main.js'));
    expect(builds).toHaveLength(1);
    await ensureServerBuild(log, root);
    expect(builds).toHaveLength(1);

    const operatorError = join(root, 'server/operator-error.ts');
    await writeFile(
      operatorError,
      (await readFile(operatorError, 'utf8')).replace('new.target.name', "'ChangedName'"),
    );
    await touch(operatorError);
    expect(await serverBuildIsStale(root)).toBe(true);
    await ensureServerBuild(log, root);
    expect(builds).toHaveLength(2);
    expect(await bundledCode(root)).toContain('"ChangedName"');

    await writeFile(join(root, 'server/added.ts'), 'export {};\n');
    expect(await serverBuildIsStale(root)).toBe(true);
    await ensureServerBuild(log, root);
    await rm(join(root, 'server/added.ts'));
    await touch(join(root, 'server'));
    expect(await serverBuildIsStale(root)).toBe(true);
    await ensureServerBuild(log, root);

    await touch(join(root, 'package.json'));
    expect(await serverBuildIsStale(root)).toBe(true);
    expect(builds).toHaveLength(4);
  });

  it('is rebuilt when a source changes but carries a time older than the bundle (tar x, rsync -a, cp -p)', async () => {
    const root = await projectCopy();
    const builds: string[] = [];
    const log = (message: string) => builds.push(message);
    await ensureServerBuild(log, root);
    expect(await serverBuildIsStale(root)).toBe(false);

    const operatorError = join(root, 'server/operator-error.ts');
    const before = await stat(operatorError);
    await writeFile(
      operatorError,
      (await readFile(operatorError, 'utf8')).replace('new.target.name', "'FromTheRelease'"),
    );
    // As an unpacked release leaves it: the file and its folder dated an hour before the bundle, and
    // before the time the file had.
    const past = new Date(Math.min(Date.now(), before.mtimeMs) - 3_600_000);
    await utimes(operatorError, past, past);
    await utimes(join(root, 'server'), past, past);
    expect((await stat(operatorError)).mtimeMs).toBeLessThan(before.mtimeMs);

    expect(await serverBuildIsStale(root)).toBe(true);
    await ensureServerBuild(log, root);
    expect(builds).toHaveLength(2);
    expect(await bundledCode(root)).toContain('"FromTheRelease"');
    expect(await serverBuildIsStale(root)).toBe(false);
  });

  it('survives processes building it at the same time: each ends with a complete bundle', async () => {
    const root = await projectCopy();
    // Left behind by a build that was killed: removed by the next build once old enough, whatever its
    // process id (which may belong to another container's process namespace).
    const abandoned = join(root, '.build/server.tmp-4194305-0badf00d');
    await mkdir(join(abandoned, 'chunk'), { recursive: true });
    const longAgo = new Date(Date.now() - 11 * 60_000);
    await utimes(abandoned, longAgo, longAgo);
    // A build running in another container (its process id means nothing here): left alone.
    const elsewhere = join(root, '.build/server.tmp-4194306-0f11f11f');
    await mkdir(elsewhere);
    const entries = await Promise.all([1, 2, 3].map(() => ensureServerBuild(() => {}, root)));
    expect(new Set(entries)).toEqual(new Set([join(root, '.build/server/main.js')]));
    expect(await serverBuildIsStale(root)).toBe(false);
    // No scratch folder of these builds is left behind; the other build's is still there.
    expect((await readdir(join(root, '.build'))).sort()).toEqual(['server', 'server.tmp-4194306-0f11f11f']);
    const main = await readFile(join(root, '.build/server/main.js'), 'utf8');
    expect(main).toContain('sourceMappingURL=main.js.map');
  });

  it('runs with source maps: a stack trace names the TypeScript source and line', async () => {
    const root = await projectCopy();
    await writeFile(join(root, 'server/main.ts'), "\n\nthrow new Error('failing on purpose');\n");
    const { code, stderr } = await run(join(root, 'scripts/start.mjs'));
    expect(code).not.toBe(0);
    expect(stderr).toContain('failing on purpose');
    expect(stderr).toMatch(/server\/main\.ts:3:7/);
  });

  it('reports a source that does not compile in one line after the compiler’s message', async () => {
    const root = await projectCopy();
    await writeFile(join(root, 'server/main.ts'), 'const = ;\n');
    const { code, stderr } = await run(join(root, 'scripts/start.mjs'));
    expect(code).toBe(1);
    expect(stderr).toContain('server/main.ts:1:6');
    expect(stderr.trim().split('\n').at(-1)).toMatch(/^highgrade: building the server failed: /);
  });

  it('stops the start with one line naming a definition that fails', async () => {
    const root = await projectCopy();
    await mkdir(join(root, 'web'), { recursive: true });
    await symlink(join(PROJECT_ROOT, 'web/dist'), join(root, 'web/dist'));
    // The linked web build is the project's: the copied files it is built from (the prerender step's)
    // keep the project's times, so it is not taken for stale.
    for (const source of WEB_BUILD_SOURCES) {
      const original = await stat(join(PROJECT_ROOT, source)).catch(() => null);
      if (original?.isFile())
        await utimes(join(root, source), original.atime, original.mtime).catch(() => {});
    }
    await writeFile(
      join(root, 'server/realtime/definitions/zz_broken.sql'),
      'create or replace function realtime.zz_broken() returns int language sql as $$ select no_such_function() $$;\n',
    );
    const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-launcher-data-'));
    dirs.push(dataDir);
    const template = process.env.HIGHGRADE_PGLITE_TEMPLATE;
    if (!template) throw new Error('the integration setup provides a migrated PGlite template');
    await cp(template, join(dataDir, 'db'), { recursive: true });
    const { code, stderr } = await run(join(root, 'scripts/start.mjs'), { DATA_DIR: dataDir, PORT: '0' });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'highgrade: Definition server/realtime/definitions/zz_broken.sql failed: function no_such_function() does not exist',
    );
  });

  it('starts three processes at once on a checkout without a web build: one builds, all serve it (decision 174)', async () => {
    const root = await projectCopy();
    for (const path of [
      'web/src',
      'web/public',
      'web/index.html',
      'web/tsconfig.json',
      'vite.config.ts',
      'package-lock.json',
      // The personal-data page renders the register itself (issue 33).
      'docs/personal-data.md',
    ]) {
      await cp(join(PROJECT_ROOT, path), join(root, path), { recursive: true });
    }
    const template = process.env.HIGHGRADE_PGLITE_TEMPLATE;
    if (!template) throw new Error('the integration setup provides a migrated PGlite template');
    const servers = await Promise.all(
      [0, 1, 2].map(async () => {
        const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-launcher-data-'));
        dirs.push(dataDir);
        await cp(template, join(dataDir, 'db'), { recursive: true });
        const child = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
          cwd: root,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', DATA_DIR: dataDir },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
        });
        child.stderr.on('data', (chunk) => {
          err += chunk;
        });
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          child.on('exit', (code, signal) => resolve({ code, signal })),
        );
        running.push({ child, stdout: () => out, stderr: () => err, exited, ready: Promise.resolve('') });
        return { child, out: () => out, err: () => err, exited };
      }),
    );
    const urls = await Promise.all(
      servers.map(
        (server) =>
          new Promise<string>((resolve, reject) => {
            const check = () => {
              const match = /running at (http:\/\/\S+)/.exec(server.out());
              if (match?.[1]) resolve(match[1]);
            };
            server.child.stdout.on('data', check);
            check();
            void server.exited.then(({ code }) => reject(new Error(`exited ${code}: ${server.err()}`)));
          }),
      ),
    );
    for (const url of urls) {
      const page = await fetch(url, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('id="app-config"');
    }
    // One process built it; the others waited for that build.
    const logs = servers.map((server) => server.out() + server.err()).join('\n');
    expect(logs.match(/building the web app \(first start/g)).toHaveLength(1);
  }, 300_000);

  it('reads the migrations from the sources: an applied file that no longer matches stops the start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-launcher-data-'));
    dirs.push(dataDir);
    const template = process.env.HIGHGRADE_PGLITE_TEMPLATE;
    if (!template) throw new Error('the integration setup provides a migrated PGlite template');
    await cp(template, join(dataDir, 'db'), { recursive: true });
    const { openPglite } = await import('#server/db/pglite.ts');
    const { readMigrations } = await import('#server/db/migrate.ts');
    const [first] = await readMigrations();
    if (!first) throw new Error('the project has migrations');
    const db = await openPglite({ dataDir });
    try {
      const changed = await db.query(
        `update _platform.migrations set checksum = 'not-the-file' where layer = $1 and name = $2`,
        [first.layer, first.name],
      );
      expect(changed.rowCount).toBe(1);
    } finally {
      await db.close();
    }

    const server = spawnServer({ DATA_DIR: dataDir });
    running.push(server);
    const { code } = await server.exited;
    expect(code).toBe(1);
    expect(server.stderr().trim()).toBe(
      `highgrade: Migration server/db/migrations/${first.name} was changed after it was applied. ` +
        'Applied migrations are never edited: restore the file and put the change in a new migration.',
    );
  });
});
