// The server's bundle (decision 086): server/main.ts and everything it imports from server/, compiled
// by esbuild into .build/server/ so that `npm start` loads plain JavaScript instead of transpiling
// TypeScript through tsx's loader hooks on every start. Packages stay external (loaded from
// node_modules as usual). Plain JavaScript because it runs before anything can compile TypeScript.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const BUILD_DIR = join(PROJECT_ROOT, '.build/server');
export const ENTRY = join(BUILD_DIR, 'main.js');

/** What the bundle is made from: a change to any of these (or a file added or removed) rebuilds it. */
const SOURCES = ['server', 'package.json', 'tsconfig.json', 'tsconfig.base.json', 'scripts/server-build.mjs'];

async function mtime(path) {
  try {
    return (await stat(path)).mtimeMs;
  } catch (error) {
    if (error.code === 'ENOENT') return 0;
    throw error;
  }
}

/** Newest modification time of a file, or of a folder, its entries and everything below them. */
async function newestMtime(path) {
  const own = await mtime(path);
  let entries;
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOTDIR' || error.code === 'ENOENT') return own;
    throw error;
  }
  const times = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? newestMtime(join(path, entry.name)) : mtime(join(path, entry.name)),
    ),
  );
  return Math.max(own, ...times);
}

/** Whether the bundle is missing or older than any of its sources. */
export async function serverBuildIsStale(root = PROJECT_ROOT) {
  const built = await mtime(join(root, '.build/server/main.js'));
  if (built === 0) return true;
  const newest = await Promise.all(SOURCES.map((source) => newestMtime(join(root, source))));
  return Math.max(...newest) > built;
}

/**
 * Builds the bundle when it is missing or stale; returns the entry point's path. Several processes
 * may start at once (the test suites do): each builds into its own scratch folder and moves it into
 * place with one rename, so nobody ever imports a half-written bundle, and a process that finds a
 * fresh bundle already in place when it finishes keeps that one.
 */
export async function ensureServerBuild(log = () => {}, root = PROJECT_ROOT) {
  const buildDir = join(root, '.build/server');
  const entry = join(buildDir, 'main.js');
  if (!(await serverBuildIsStale(root))) return entry;
  log('building the server (first start or sources changed)…');

  const { build } = await import('esbuild');
  // Stamped with the time the build started, so a source saved while it ran makes it stale again.
  const started = new Date();
  const scratch = join(root, `.build/server.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(dirname(scratch), { recursive: true });
  await removeAbandoned(dirname(scratch));
  try {
    await build({
      absWorkingDir: root,
      entryPoints: { main: 'server/main.ts' },
      outdir: scratch,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Dependencies load from node_modules as they would under tsx; only our own code is bundled.
      packages: 'external',
      // The server's dynamic imports (the database driver it needs, S3 when configured) stay lazy.
      splitting: true,
      // Stack traces point at server/*.ts (the launcher enables source maps); the sources themselves
      // are in the repository, so the map does not carry a copy of them.
      sourcemap: 'linked',
      sourcesContent: false,
      logLevel: 'error',
    });
    await utimes(join(scratch, 'main.js'), started, started);
    await moveIntoPlace(scratch, buildDir, root);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return entry;
}

/** Scratch and set-aside folders of builds whose process is gone (killed, Ctrl-C during a build). */
async function removeAbandoned(dir) {
  for (const entry of await readdir(dir)) {
    const pid = Number(/^server\.(?:tmp|old)-(\d+)-/.exec(entry)?.[1]);
    if (pid && !isAlive(pid)) await rm(join(dir, entry), { recursive: true, force: true });
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function moveIntoPlace(scratch, buildDir, root) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await rename(scratch, buildDir);
      return;
    } catch (error) {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    }
    // Another process built it meanwhile: keep theirs if it is fresh, else set the old one aside.
    if (!(await serverBuildIsStale(root))) return;
    const old = `${buildDir}.old-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await rename(buildDir, old);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    await rm(old, { recursive: true, force: true });
  }
  throw new Error(`could not move the server bundle into ${buildDir}`);
}
