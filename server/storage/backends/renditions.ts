import type { RenditionCache } from '../render/cache.ts';
import type { BlobInfo, BlobWrite, ByteRange, StorageBackend } from './backend.ts';

/**
 * A backend whose `remove` also removes the rendered images of the removed blobs (decision 228).
 * Every path that deletes bytes — object deletes, replacements, emptying a bucket, and the account
 * erasure of /functions/v1, which moves blobs aside with copy + remove — goes through `remove`, so no
 * derivative of an erased member's picture outlives its original.
 */
export class RenditionCleanupBackend implements StorageBackend {
  constructor(
    private readonly inner: StorageBackend,
    readonly renditions: RenditionCache,
  ) {}

  get kind(): 'file' | 's3' {
    return this.inner.kind;
  }

  startWrite(key: string, info: BlobInfo): Promise<BlobWrite> {
    return this.inner.startWrite(key, info);
  }

  read(key: string, range?: ByteRange) {
    return this.inner.read(key, range);
  }

  copy(fromKey: string, toKey: string): Promise<void> {
    return this.inner.copy(fromKey, toKey);
  }

  async remove(keys: string[]): Promise<void> {
    // Derivatives first: if removing them fails, the original is still there and a retry removes both.
    await this.renditions.removeFor(keys);
    await this.inner.remove(keys);
  }

  exists(key: string): Promise<boolean> {
    return this.inner.exists(key);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
