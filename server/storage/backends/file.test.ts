import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFound } from './backend.ts';
import { FileBackend } from './file.ts';

let root: string;
let backend: FileBackend;
const info = { contentType: 'text/plain', cacheControl: 'no-cache' };

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'highgrade-file-backend-'));
  backend = await FileBackend.open(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function write(key: string, content: string) {
  const blob = await backend.startWrite(key, info);
  await new Promise<void>((resolve, reject) =>
    blob.stream.end(content, (error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return blob;
}

describe('FileBackend', () => {
  it('makes a blob readable only on commit', async () => {
    const key = randomUUID();
    const blob = await write(key, 'hello');
    expect(await backend.exists(key)).toBe(false);
    expect(await readdir(join(root, '.staging'))).toHaveLength(1);
    await blob.commit();
    expect(await backend.exists(key)).toBe(true);
    expect(await readdir(join(root, '.staging'))).toHaveLength(0);
    expect(await text(await backend.read(key))).toBe('hello');
    expect(await text(await backend.read(key, { start: 1, end: 3 }))).toBe('ell');
  });

  it('leaves nothing when a write is aborted, at any point', async () => {
    const early = await backend.startWrite(randomUUID(), info);
    await early.abort();
    const late = await write(randomUUID(), 'written');
    await late.abort();
    await late.abort();
    expect(await readdir(join(root, '.staging'))).toEqual([]);
    expect(await readdir(join(root, 'objects'))).toEqual([]);
  });

  it('copies and removes blobs; a missing one is BlobNotFound', async () => {
    const from = randomUUID();
    const to = randomUUID();
    await (await write(from, 'copy me')).commit();
    await backend.copy(from, to);
    await backend.remove([from, randomUUID()]);
    expect(await backend.exists(from)).toBe(false);
    expect(await text(await backend.read(to))).toBe('copy me');
    await expect(backend.read(from)).rejects.toBeInstanceOf(BlobNotFound);
    await expect(backend.copy(from, randomUUID())).rejects.toBeInstanceOf(BlobNotFound);
    expect(await readdir(join(root, '.staging'))).toEqual([]);
  });

  it('never turns a key into a path outside its directory', async () => {
    for (const key of ['../escape', '../../etc/passwd', 'a/b', '']) {
      await expect(backend.startWrite(key, info)).rejects.toThrow(/invalid blob key/);
      await expect(backend.read(key)).rejects.toThrow(/invalid blob key/);
    }
  });

  it('clears staging files of a process that died mid-upload (older than an hour) on open', async () => {
    const stale = join(root, '.staging', 'stale.part');
    const fresh = join(root, '.staging', 'fresh.part');
    await writeFile(stale, 'x');
    await writeFile(fresh, 'y');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);
    await FileBackend.open(root);
    expect(await readdir(join(root, '.staging'))).toEqual(['fresh.part']);
  });
});
