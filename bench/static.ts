/**
 * Static serving throughput: the app's page (index with per-request nonce), the largest hashed
 * script (pre-compressed, immutable), and /health — autocannon on loopback against `npm start`.
 * Run: npx tsx bench/static.ts [seconds=10]
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWebBuild, WEB_DIST } from '#server/web-build.ts';
import { load, startProcess, table } from './support.ts';

const duration = Number(process.argv[2] ?? 10);
await ensureWebBuild(console.log);
const assets = await readdir(join(WEB_DIST, 'assets'));
let largest = '';
let largestSize = 0;
for (const name of assets.filter((file) => file.endsWith('.js'))) {
  const { size } = await stat(join(WEB_DIST, 'assets', name));
  if (size > largestSize) [largest, largestSize] = [name, size];
}

const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-'));
const server = await startProcess({ DATA_DIR: dataDir });
try {
  const results = [];
  results.push(
    await load('GET / (app page, br)', {
      url: `${server.url}/`,
      headers: { 'accept-encoding': 'br' },
      duration,
    }),
  );
  results.push(
    await load(`GET /assets/${largest} (${Math.round(largestSize / 1024)} KB raw, br)`, {
      url: `${server.url}/assets/${largest}`,
      headers: { 'accept-encoding': 'br, gzip' },
      duration,
    }),
  );
  results.push(
    await load(`GET /assets/${largest} (identity)`, { url: `${server.url}/assets/${largest}`, duration }),
  );
  results.push(await load('GET /health', { url: `${server.url}/health`, duration }));
  table(results);
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
