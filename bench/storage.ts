/**
 * The file service under load, against the floor of doing the same with bare node:http:
 *  1. a 50 MB upload (raw body and multipart): the server's memory growth while it streams (RSS,
 *     V8 heap, buffers — should stay far below 50 MB) and throughput, on the disk backend and the
 *     S3 backend (a local s3rver), versus a bare route piping the request to disk;
 *  2. public downloads (64 KB and 1 MB objects, autocannon) versus a bare createReadStream route.
 * The server runs as its own process (bench/storage-child.ts), so the figures are its alone.
 * Run: npx tsx bench/storage.ts [download-seconds=5]
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { type Child, startChild } from './storage-child-process.ts';
import { type LoadResult, load, table } from './support.ts';

const downloadSeconds = Number(process.argv[2] ?? 5);
const MB = 1024 * 1024;
const UPLOAD_BYTES = 50 * MB;
const RUNS = 5;

/** Streams a file to the server (never holding it in this process); resolves to seconds taken. */
function upload(
  url: string,
  path: string,
  bytes: number,
  headers: Record<string, string>,
  body?: { head: Buffer; tail: Buffer },
): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const length = bytes + (body ? body.head.length + body.tail.length : 0);
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { ...headers, 'content-length': String(length) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          if ((response.statusCode ?? 0) >= 300) {
            reject(new Error(`upload failed: ${response.statusCode} ${Buffer.concat(chunks).toString()}`));
          } else resolve((performance.now() - started) / 1000);
        });
      },
    );
    outgoing.on('error', reject);
    const file = createReadStream(path, { highWaterMark: 256 * 1024 });
    const parts = body ? [Readable.from([body.head]), file, Readable.from([body.tail])] : [file];
    (async () => {
      for (const part of parts) {
        for await (const chunk of part) {
          if (!outgoing.write(chunk)) await new Promise((r) => outgoing.once('drain', r));
        }
      }
      outgoing.end();
    })().catch(reject);
  });
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const scratch = await mkdtemp(join(tmpdir(), 'highgrade-bench-storage-'));
const bigFile = join(scratch, 'fifty.bin');
await writeFile(bigFile, randomBytes(UPLOAD_BYTES));
const boundary = 'bench-boundary-7d1f';
const multipart = {
  head: Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n3600\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name=""; filename="fifty.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  ),
  tail: Buffer.from(`\r\n--${boundary}--\r\n`),
};

const s3Dir = await mkdtemp(join(tmpdir(), 'highgrade-bench-s3-'));
const s3 = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: s3Dir,
  configureBuckets: [{ name: 'bench' }],
});
const s3Port = (await s3.run()).port;

const uploads: object[] = [];
const downloads: LoadResult[] = [];

async function measureUploads(
  name: string,
  child: Child,
  target: (run: number) => string,
  headers: Record<string, string>,
  body?: { head: Buffer; tail: Buffer },
) {
  const seconds: number[] = [];
  const growth: Record<string, number>[] = [];
  // One unmeasured run first: the first upload of a process also pays for JIT warm-up.
  await upload(target(RUNS), bigFile, UPLOAD_BYTES, headers, body);
  for (let run = 0; run < RUNS; run++) {
    await child.ask('baseline');
    seconds.push(await upload(target(run), bigFile, UPLOAD_BYTES, headers, body));
    growth.push(await child.ask('peak'));
  }
  const worst = (key: string) => Math.max(...growth.map((entry) => entry[key] ?? 0));
  uploads.push({
    upload: name,
    'MB/s (median)': Math.round(UPLOAD_BYTES / MB / median(seconds)),
    'RSS growth (max)': mb(worst('rss')),
    'heap growth (max)': mb(worst('heapUsed')),
    // Buffers include garbage not yet collected: the peak, not what stays.
    'buffers peak growth': mb(worst('arrayBuffers')),
  });
}

try {
  for (const backend of ['file', 's3'] as const) {
    const dataDir = await mkdtemp(join(scratch, `data-${backend}-`));
    const env: Record<string, string> = { DATA_DIR: dataDir, FILE_SIZE_LIMIT: String(100 * MB) };
    if (backend === 's3') {
      Object.assign(env, {
        STORAGE_BACKEND: 's3',
        STORAGE_S3_BUCKET: 'bench',
        STORAGE_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        STORAGE_S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
      });
    }
    const server = await startChild('server', env);
    const auth = { apikey: server.serviceRoleKey ?? '', authorization: `Bearer ${server.serviceRoleKey}` };
    const created = await fetch(`${server.url}/storage/v1/bucket`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'bench', name: 'bench', public: true }),
    });
    if (!created.ok) throw new Error(`could not create the bucket: ${await created.text()}`);
    const object = (run: number, kind: string) => `${server.url}/storage/v1/object/bench/${kind}-${run}.bin`;
    await measureUploads(`storage, ${backend}, raw body`, server, (run) => object(run, 'raw'), {
      ...auth,
      'content-type': 'application/octet-stream',
    });
    await measureUploads(
      `storage, ${backend}, multipart`,
      server,
      (run) => object(run, 'form'),
      { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      multipart,
    );

    if (backend === 'file') {
      for (const size of [64 * 1024, MB]) {
        const name = `public-${size}.bin`;
        const put = await fetch(`${server.url}/storage/v1/object/bench/${name}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/octet-stream', 'cache-control': 'max-age=3600' },
          body: new Uint8Array(randomBytes(size)),
        });
        if (!put.ok) throw new Error(`could not upload ${name}: ${await put.text()}`);
        downloads.push(
          await load(`storage public GET ${size / 1024} KB`, {
            url: `${server.url}/storage/v1/object/public/bench/${name}`,
            connections: 10,
            duration: downloadSeconds,
          }),
        );
      }
    }
    await server.stop();
  }

  const bare = await startChild('bare');
  await measureUploads('bare node:http → disk', bare, () => `${bare.url}/upload`, {
    'content-type': 'application/octet-stream',
  });
  // The storage service flushes every blob to disk before committing it; this is the same floor.
  await measureUploads('bare node:http → disk + fsync', bare, () => `${bare.url}/upload?fsync`, {
    'content-type': 'application/octet-stream',
  });
  for (const size of [64 * 1024, MB]) {
    const put = await fetch(`${bare.url}/files/static-${size}.bin`, {
      method: 'PUT',
      body: new Uint8Array(randomBytes(size)),
    });
    if (!put.ok) throw new Error('could not place the static file');
    downloads.push(
      await load(`bare createReadStream GET ${size / 1024} KB`, {
        url: `${bare.url}/files/static-${size}.bin`,
        connections: 10,
        duration: downloadSeconds,
      }),
    );
  }
  await bare.stop();

  console.log(
    `\n50 MB uploads (${RUNS} measured runs after a warm-up; growth of the server process while it streamed)`,
  );
  table(uploads);
  console.log(`\npublic downloads (autocannon, 10 connections, ${downloadSeconds} s each)`);
  table(downloads);
} finally {
  s3.httpServer?.closeAllConnections();
  await s3.close();
  await rm(s3Dir, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}
