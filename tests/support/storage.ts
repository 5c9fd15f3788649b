/**
 * Helpers of the storage tests (compat and integration) that need no server code: the two backends —
 * the data directory, or S3 against a real S3-compatible server (s3rver, started here on a free port)
 * — a view of what the backend holds, so tests can check that nothing was left behind, and files.
 * tests/compat/storage-support.ts starts the server as a process; tests/integration/storage-support.ts
 * in the test's own process.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export type Backend = 'file' | 's3';
export const BACKENDS: Backend[] = ['file', 's3'];

const S3_BUCKET = 'highgrade-test';
const S3_KEY = 'S3RVER';

/** A real S3-compatible server on a free port, with one empty bucket. */
export async function startS3(): Promise<{ endpoint: string; bucket: string; close(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'highgrade-s3-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: S3_BUCKET }],
  });
  const address = await s3.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket: S3_BUCKET,
    async close() {
      s3.httpServer?.closeAllConnections();
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** What a storage test needs of a server, however it was started. */
export interface StorageServer {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  dataDir: string;
  close(): Promise<void>;
}

export interface StorageTestServer<S extends StorageServer = StorageServer> {
  backend: Backend;
  server: S;
  url: string;
  /** Keys of every committed blob in the backend. */
  blobs(): Promise<string[]>;
  /** Every object the backend holds (key and bytes), for scans of what is stored. */
  objects(): Promise<{ key: string; body: Buffer }[]>;
  /** Files of uploads in flight (file backend; always empty on S3). */
  staging(): Promise<string[]>;
  close(): Promise<void>;
}

async function walk(directory: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...(await walk(path)));
    else files.push(path);
  }
  return files;
}

/**
 * The real server on the given backend (and the database tier under test), started by `start`:
 * tests/support/server-process.ts for black-box tests, test-server.ts for tests that look inside.
 */
export async function startStorage<S extends StorageServer>(
  backend: Backend,
  env: Record<string, string>,
  start: (env: Record<string, string>) => Promise<S>,
): Promise<StorageTestServer<S>> {
  const s3 = backend === 's3' ? await startS3() : undefined;
  let server: S;
  try {
    server = await start({
      ...(s3
        ? {
            STORAGE_BACKEND: 's3',
            STORAGE_S3_BUCKET: s3.bucket,
            STORAGE_S3_ENDPOINT: s3.endpoint,
            STORAGE_S3_FORCE_PATH_STYLE: 'true',
            STORAGE_S3_REGION: 'us-east-1',
            AWS_ACCESS_KEY_ID: S3_KEY,
            AWS_SECRET_ACCESS_KEY: S3_KEY,
          }
        : {}),
      ...env,
    });
  } catch (error) {
    await s3?.close();
    throw error;
  }
  const s3Client = s3
    ? new S3Client({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_KEY },
      })
    : undefined;
  return {
    backend,
    server,
    url: server.url,
    async blobs() {
      if (s3Client && s3) {
        const keys: string[] = [];
        let token: string | undefined;
        do {
          const page = await s3Client.send(
            new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }),
          );
          keys.push(...(page.Contents ?? []).map((item) => item.Key ?? ''));
          token = page.NextContinuationToken;
        } while (token);
        return keys.sort();
      }
      return (await walk(join(server.dataDir, 'storage', 'objects')))
        .map((path) => path.slice(path.lastIndexOf('/') + 1))
        .sort();
    },
    async objects() {
      if (s3Client && s3) {
        const found: { key: string; body: Buffer }[] = [];
        let token: string | undefined;
        do {
          const page = await s3Client.send(
            new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }),
          );
          for (const item of page.Contents ?? []) {
            const object = await s3Client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: item.Key }));
            const bytes = await object.Body?.transformToByteArray();
            found.push({ key: item.Key ?? '', body: Buffer.from(bytes ?? []) });
          }
          token = page.NextContinuationToken;
        } while (token);
        return found;
      }
      const root = join(server.dataDir, 'storage', 'objects');
      return Promise.all(
        (await walk(root)).map(async (path) => ({ key: relative(root, path), body: await readFile(path) })),
      );
    },
    async staging() {
      return walk(join(server.dataDir, 'storage', '.staging'));
    },
    async close() {
      s3Client?.destroy();
      await server.close();
      await s3?.close();
    },
  };
}

// -------------------------------------------------------------------------------------------------
// Files
// -------------------------------------------------------------------------------------------------

/** A valid 1×1 PNG. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d1a5f90000000049454e44ae426082',
  'hex',
);
/** A valid 1×1 GIF. */
export const GIF = Buffer.from(
  '47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b',
  'hex',
);

/** A PNG of about `bytes` bytes: valid structure, padded with an ancillary chunk of pseudo-random data. */
export function pngOfSize(bytes: number, seed = 1): Buffer {
  const head = PNG.subarray(0, 33);
  const tail = PNG.subarray(33);
  const length = Math.max(0, bytes - PNG.length - 12);
  const data = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    // Printable-free bytes that cannot spell a marker: keep them out of '<', 'P', 'j', 0x7f, 'R', '7', '%'.
    data[i] = 0x80 + (state % 0x7f);
  }
  const chunk = Buffer.alloc(12 + length);
  chunk.writeUInt32BE(length, 0);
  chunk.write('prVt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(0, 8 + length);
  return Buffer.concat([head, chunk, tail]);
}

export const blob = (bytes: Buffer, type: string) => new Blob([new Uint8Array(bytes)], { type });

/** Polls until `check` holds (for work the server finishes after answering); fails after ~10 s. */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}
