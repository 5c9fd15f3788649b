import { spawn } from 'node:child_process';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { OperatorError } from './operator-error.ts';
import { PROJECT_ROOT } from './paths.ts';

export { PROJECT_ROOT };
export const WEB_DIST = join(PROJECT_ROOT, 'web/dist');

/** What the web build is made from: a change to any of them makes it stale. */
export const WEB_BUILD_SOURCES = [
  'web/src',
  'web/public',
  'web/index.html',
  'vite.config.ts',
  // The build's prerender step (decision 157) and the placeholders it shares with the server.
  'scripts/prerender.ts',
  'server/http/prerendered.ts',
  'package-lock.json',
];

async function newestMtime(path: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(path)) newest = Math.max(newest, await newestMtime(join(path, entry)));
  return newest;
}

/** Whether web/dist is missing or older than any of the web app's sources. */
export async function webBuildIsStale(root = PROJECT_ROOT): Promise<boolean> {
  const built = await newestMtime(join(root, 'web/dist/index.html'));
  if (built === 0) return true;
  for (const source of WEB_BUILD_SOURCES) {
    if ((await newestMtime(join(root, source))) > built) return true;
  }
  return false;
}

export class WebBuildError extends OperatorError {}

/** A lock untouched this long belongs to a build that will not finish (killed, Ctrl-C). */
const ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * Builds the web app with Vite when it is not built (or its sources changed since). Several
 * processes may start at once on one checkout (issue 36): one builds, under a lock (a directory made
 * atomically, `.build/web-build.lock`), and the others wait for it and then find the build fresh.
 * Vite writes into web/dist and its prerender step into shared folders, so builds never run side by
 * side (decision 174).
 */
export async function ensureWebBuild(log: (message: string) => void, root = PROJECT_ROOT): Promise<void> {
  const lock = join(root, '.build/web-build.lock');
  let waiting = false;
  for (;;) {
    if (!(await webBuildIsStale(root))) return;
    await mkdir(dirname(lock), { recursive: true });
    try {
      await mkdir(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = await stat(lock).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > ABANDONED_AFTER_MS) {
        await rm(lock, { recursive: true, force: true });
        continue;
      }
      if (!waiting) log('waiting for another process building the web app…');
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      // Built by another process between our look and the lock.
      if (!(await webBuildIsStale(root))) return;
      await viteBuild(log, root);
      return;
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

async function viteBuild(log: (message: string) => void, root: string): Promise<void> {
  log('building the web app (first start or sources changed)…');
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  const code = await new Promise<number | null>((resolve, reject) => {
    // Always a production build: a caller's NODE_ENV (Vitest sets `test`) would otherwise make Vite
    // bundle React's development builds and the dev JSX runtime.
    const child = spawn(process.execPath, [vite, 'build', '--mode', 'production', '--logLevel', 'warn'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) throw new WebBuildError(`building the web app failed (vite exited with ${code})`);
}
