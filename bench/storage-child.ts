/**
 * The measured process of bench/storage.ts: either the real server (`server`) or a bare node:http
 * server (`bare`) that pipes an upload straight to disk and serves a file with createReadStream —
 * the floor the storage service is compared with. It samples its own memory every few milliseconds
 * and answers the parent on stdin/stdout (one JSON line each):
 *   ready → {url, serviceRoleKey?}    baseline → {}    peak → growth since the baseline, in bytes
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';

const mode = process.argv[2] === 'bare' ? 'bare' : 'server';
const send = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

interface Sample {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}
const sample = (): Sample => {
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
};
let baseline = sample();
let peak = sample();
setInterval(() => {
  const now = sample();
  for (const key of Object.keys(peak) as (keyof Sample)[]) peak[key] = Math.max(peak[key], now[key]);
}, 5).unref();

let close: () => Promise<void>;
const scratch = await mkdtemp(join(tmpdir(), 'highgrade-bench-child-'));

if (mode === 'server') {
  const webDir = join(scratch, 'web');
  await mkdir(webDir);
  await writeFile(
    join(webDir, 'index.html'),
    '<!doctype html><html lang="en"><head><title>HighGrade bench</title><!--app-config--></head><body></body></html>',
  );
  const server = await startServer(
    loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }),
    {
      logger: false,
      webDir,
    },
  );
  close = server.close;
  send({ url: server.url, serviceRoleKey: server.ctx.keys.serviceRoleKey, anonKey: server.ctx.keys.anonKey });
} else {
  const files = join(scratch, 'files');
  await mkdir(files);
  let uploads = 0;
  const server = createServer(async (request, response) => {
    try {
      if (request.method === 'POST' && request.url?.startsWith('/upload')) {
        const path = join(files, `upload-${uploads++}`);
        await pipeline(request, createWriteStream(path));
        if (request.url === '/upload?fsync') {
          const handle = await open(path, 'r+');
          await handle.sync();
          await handle.close();
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        await rm(path, { force: true });
      } else if (request.method === 'PUT' && request.url?.startsWith('/files/')) {
        await pipeline(request, createWriteStream(join(files, request.url.slice(7))));
        response.writeHead(200).end();
      } else if (request.method === 'GET' && request.url?.startsWith('/files/')) {
        const path = join(files, request.url.slice(7));
        const { size } = await stat(path);
        response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
        await pipeline(createReadStream(path), response);
      } else {
        response.writeHead(404).end();
      }
    } catch {
      response.destroy();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  close = () => new Promise((resolve) => server.close(() => resolve()));
  send({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'baseline') {
    globalThis.gc?.();
    baseline = sample();
    peak = sample();
    send({});
  } else if (line === 'peak') {
    const growth = Object.fromEntries(
      (Object.keys(peak) as (keyof Sample)[]).map((key) => [key, peak[key] - baseline[key]]),
    );
    send(growth);
  } else if (line === 'exit') {
    break;
  }
}
await close();
await rm(scratch, { recursive: true, force: true });
process.exit(0);
