// The server's bundle (decision 086): server/main.ts and everything it imports from server/, compiled
// by esbuild into .build/server/ so that `npm start` loads plain JavaScript instead of transpiling
// TypeScript through tsx's loader hooks on every start. Packages stay external (loaded from
// node_modules as usual). Plain JavaScript because it runs before anything can compile TypeScript.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const BUILD_DIR = join(PROJECT_ROOT, '.build/server');
export const ENTRY = join(BUILD_DIR, 'main.js');

/** What the bundle is made from: a change to any of these (or a file added or removed) rebuilds it. */
const SOURCES = ['server', 'package.json', 'tsconfig.json', 'tsconfig.base.json', 'scripts/server-build.mjs'];
/** Written beside main.js: every file the build read, with the size and modification time it had. */
const MANIFEST = 'manifest.json';
/** A scratch or set-aside folder untouched this long belongs to a build that will not finish. */
const ABANDONED_AFTER_MS = 10 * 60 * 1000;

async function statOrUndefined(path) {
  try {
    return await stat(path);
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Newest modification time of a file, or of a folder, its entries and everything below them. Records
 * each file's stat in `seen`, so the manifest check does not stat them a second time.
 */
async function newestMtime(path, seen) {
  const own = (await statOrUndefined(path))?.mtimeMs ?? 0;
  let entries;
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOTDIR' || error.code === 'ENOENT') return own;
    throw error;
  }
  const times = await Promise.all(
    entries.map(async (entry) => {
      const child = join(path, entry.name);
      if (entry.isDirectory()) return newestMtime(child, seen);
      const info = await statOrUndefined(child);
      if (info) seen.set(child, info);
      return info?.mtimeMs ?? 0;
    }),
  );
  return Math.max(own, ...times);
}

/** The manifest written by the last build: `{files: {path: [size, mtimeMs]}}`, or undefined. */
async function readManifest(buildDir) {
  try {
    return JSON.parse(await readFile(join(buildDir, MANIFEST), 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT' || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** Whether every file the manifest lists still has the size and modification time it was built from. */
async function manifestMatches(manifest, root, seen) {
  const files = Object.entries(manifest?.files ?? {});
  if (files.length === 0) return false;
  const matches = await Promise.all(
    files.map(async ([path, [size, mtimeMs]]) => {
      const full = join(root, path);
      const now = seen.get(full) ?? (await statOrUndefined(full));
      return now !== undefined && now.size === size && now.mtimeMs === mtimeMs;
    }),
  );
  return matches.every(Boolean);
}

/**
 * Whether the bundle is missing or may not match its sources. Two checks, both needed:
 * - the manifest: every file the build read still has exactly the size and modification time it had
 *   then, so a changed file counts whichever way its time moved (a release unpacked with `tar x`,
 *   `rsync -a` or `cp -p` keeps older times; clocks step back);
 * - nothing under the sources is newer than the bundle, which catches a file added or removed (its
 *   folder's time changes) and a file saved while the build ran.
 */
export async function serverBuildIsStale(root = PROJECT_ROOT) {
  const buildDir = join(root, '.build/server');
  const built = (await statOrUndefined(join(buildDir, 'main.js')))?.mtimeMs;
  if (built === undefined) return true;
  const seen = new Map();
  const [manifest, newest] = await Promise.all([
    readManifest(buildDir),
    Promise.all(SOURCES.map((source) => newestMtime(join(root, source), seen))),
  ]);
  if (Math.max(...newest) > built) return true;
  return !(await manifestMatches(manifest, root, seen));
}

/** The manifest of a build: the inputs esbuild reports, and the files that configure the build. */
async function writeManifest(root, scratch, metafile) {
  const inputs = Object.keys(metafile.inputs).filter((path) => !/^[a-z-]+:/.test(path));
  const paths = [...new Set([...inputs, ...SOURCES.filter((source) => source !== 'server')])].sort();
  const stats = await Promise.all(paths.map((path) => stat(join(root, path))));
  const files = Object.fromEntries(paths.map((path, i) => [path, [stats[i].size, stats[i].mtimeMs]]));
  await writeFile(join(scratch, MANIFEST), `${JSON.stringify({ files }, null, 1)}\n`);
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
    const result = await build({
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
      metafile: true,
    });
    // Read after the build: a file saved while it ran is newer than the bundle's stamp and rebuilds.
    await writeManifest(root, scratch, result.metafile);
    await utimes(join(scratch, 'main.js'), started, started);
    await moveIntoPlace(scratch, buildDir, root);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return entry;
}

/**
 * Scratch and set-aside folders of builds that were abandoned (killed, Ctrl-C during a build), judged
 * by age: a build takes seconds, and process ids say nothing when containers with their own process
 * namespaces share a checkout.
 */
async function removeAbandoned(dir) {
  const now = Date.now();
  for (const entry of await readdir(dir)) {
    if (!/^server\.(?:tmp|old)-/.test(entry)) continue;
    const info = await statOrUndefined(join(dir, entry));
    if (info && now - info.mtimeMs > ABANDONED_AFTER_MS)
      await rm(join(dir, entry), { recursive: true, force: true });
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
