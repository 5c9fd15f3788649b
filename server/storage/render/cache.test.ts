import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileBackend } from '../backends/file.ts';
import { RenditionCleanupBackend } from '../backends/renditions.ts';
import { RenditionCache } from './cache.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'renditions-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the rendition cache', () => {
  it('keeps renditions by version, at most perVersion of them, and finds them again', async () => {
    const cache = new RenditionCache(join(root, 'renditions'), 2);
    const version = randomUUID();
    expect(await cache.find(version, 'w1-h1-cover-q80.webp')).toBeUndefined();
    await cache.keep(version, 'w1-h1-cover-q80.webp', Buffer.from('a'));
    await cache.keep(version, 'w2-h2-cover-q80.webp', Buffer.from('bb'));
    await cache.keep(version, 'w3-h3-cover-q80.webp', Buffer.from('ccc'));
    const found = await cache.find(version, 'w2-h2-cover-q80.webp');
    expect(found?.size).toBe(2);
    expect(await readFile(found?.path as string, 'utf8')).toBe('bb');
    expect(await cache.find(version, 'w3-h3-cover-q80.webp')).toBeUndefined();
    await expect(cache.find('../etc', 'x')).rejects.toThrow();
    await expect(cache.keep(version, '../passwd', Buffer.from('x'))).rejects.toThrow();
  });

  it('go with their blob when the backend removes it', async () => {
    const cache = new RenditionCache(join(root, 'renditions'));
    const backend = new RenditionCleanupBackend(await FileBackend.open(join(root, 'storage')), cache);
    const [kept, other] = [randomUUID(), randomUUID()];
    for (const version of [kept, other]) {
      const write = await backend.startWrite(version, { contentType: 'image/png', cacheControl: 'no-cache' });
      write.stream.end('bytes');
      await new Promise((resolve) => write.stream.on('finish', resolve));
      await write.commit();
      await cache.keep(version, 'w10-h10-cover-q80.png', Buffer.from('small'));
    }
    await backend.remove([other]);
    expect(await backend.exists(other)).toBe(false);
    expect(await cache.find(other, 'w10-h10-cover-q80.png')).toBeUndefined();
    expect(await cache.find(kept, 'w10-h10-cover-q80.png')).toBeDefined();
    expect(await readdir(join(root, 'renditions', other.slice(0, 2)))).not.toContain(other);
  });
});
