/**
 * Cold start to the first `/health` 200, measured from spawning the process as `npm start` does: the
 * first start on an empty DATA_DIR (creates the embedded database and applies every migration) and
 * restarts on it. The server's bundle and the web app are built beforehand, so neither build is timed.
 * Run: npx tsx bench/startup.ts [restarts=5]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWebBuild } from '#server/web-build.ts';
import { ensureServerBuild } from '../scripts/server-build.mjs';
import { startProcess } from './support.ts';

const restarts = Number(process.argv[2] ?? 5);
await ensureServerBuild(console.log);
await ensureWebBuild(console.log);
const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-'));
try {
  const first = await startProcess({ DATA_DIR: dataDir });
  await first.stop();
  const times: number[] = [];
  for (let i = 0; i < restarts; i++) {
    const server = await startProcess({ DATA_DIR: dataDir });
    times.push(server.readyMs);
    await server.stop();
  }
  times.sort((a, b) => a - b);
  const ms = (value: number | undefined) => `${Math.round(value ?? 0)} ms`;
  console.log(`start-up to first /health 200 (embedded database; load average ${loadavg()[0]?.toFixed(2)})`);
  console.table([
    { run: 'first start (new DATA_DIR)', time: ms(first.readyMs) },
    { run: `restart, median of ${restarts}`, time: ms(times[Math.floor(times.length / 2)]) },
    { run: 'restart, fastest', time: ms(times[0]) },
    { run: 'restart, slowest', time: ms(times.at(-1)) },
  ]);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
