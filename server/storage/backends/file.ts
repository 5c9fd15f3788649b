import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, type FileHandle, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  type BlobInfo,
  BlobNotFound,
  type BlobWrite,
  type ByteRange,
  type StorageBackend,
} from './backend.ts';

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Staging files older than this belong to no upload still running (uploads time out long before). */
const STALE_STAGING_MS = 60 * 60 * 1000;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Writes a file's data to disk before it is renamed into place. */
async function flush(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename or a new file durable: the directory entry is flushed too. */
async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Blobs as files under DATA_DIR/storage: `objects/<first two characters>/<key>` for committed blobs,
 * `.staging/` for uploads in flight. A write goes to a staging file, is flushed to disk, and is
 * renamed into place on commit — atomic on one file system, so a blob is either complete or absent.
 */
export class FileBackend implements StorageBackend {
  readonly kind = 'file';
  private readonly objects: string;
  private readonly staging: string;

  private constructor(readonly root: string) {
    this.objects = join(root, 'objects');
    this.staging = join(root, '.staging');
  }

  static async open(root: string): Promise<FileBackend> {
    const backend = new FileBackend(root);
    await mkdir(backend.objects, { recursive: true, mode: 0o700 });
    await mkdir(backend.staging, { recursive: true, mode: 0o700 });
    await backend.removeStaleStaging();
    return backend;
  }

  /** Leftovers of a process that died mid-upload. */
  private async removeStaleStaging(): Promise<void> {
    const now = Date.now();
    for (const entry of await readdir(this.staging)) {
      const path = join(this.staging, entry);
      try {
        if (now - (await stat(path)).mtimeMs > STALE_STAGING_MS) await rm(path, { force: true });
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
  }

  private pathOf(key: string): string {
    // Keys are version ids the service generates; anything else is a bug, never a path to follow.
    if (!KEY.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
    return join(this.objects, key.slice(0, 2), key);
  }

  private stagingPath(key: string): string {
    return join(this.staging, `${key}.${randomBytes(6).toString('hex')}.part`);
  }

  async startWrite(key: string, _info: BlobInfo): Promise<BlobWrite> {
    const target = this.pathOf(key);
    const temporary = this.stagingPath(key);
    // Opened here, not lazily by the stream, so the file exists before anyone can abort.
    const handle = await open(temporary, 'wx', 0o600);
    const stream = handle.createWriteStream();
    let settled = false;
    return {
      stream,
      async commit() {
        if (settled) throw new Error('blob write already settled');
        settled = true;
        await flush(temporary);
        await mkdir(dirname(target), { recursive: true, mode: 0o700 });
        await rename(temporary, target);
        await syncDirectory(dirname(target));
      },
      async abort() {
        settled = true;
        if (!stream.destroyed) {
          const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
          stream.destroy();
          await closed;
        }
        await rm(temporary, { force: true }).catch(() => {});
      },
    };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFound(key);
      throw error;
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const target = this.pathOf(toKey);
    const temporary = this.stagingPath(toKey);
    try {
      await copyFile(this.pathOf(fromKey), temporary, constants.COPYFILE_EXCL);
      await flush(temporary);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await rename(temporary, target);
      await syncDirectory(dirname(target));
    } catch (error) {
      await rm(temporary, { force: true });
      if (isMissing(error)) throw new BlobNotFound(fromKey);
      throw error;
    }
  }

  async remove(keys: string[]): Promise<void> {
    for (const key of keys) {
      try {
        await unlink(this.pathOf(key));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.pathOf(key));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async close(): Promise<void> {}
}
