import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { RenditionCache } from '../render/cache.ts';
import { FileBackend } from './file.ts';
import { RenditionCleanupBackend } from './renditions.ts';
import type { Warn } from './s3.ts';

/** Where rendered images are kept, for either backend (decision 228). */
export function renditionsDir(config: Config): string {
  return join(config.dataDir, 'storage', 'renditions');
}

/**
 * The backend STORAGE_BACKEND names: DATA_DIR/storage (default) or the configured S3 bucket —
 * wrapped so that removing a blob removes its rendered images too.
 */
export async function openBackend(config: Config, warn: Warn): Promise<RenditionCleanupBackend> {
  const cache = new RenditionCache(renditionsDir(config));
  if (config.storageBackend === 's3') {
    // The AWS SDK takes a noticeable part of start-up to load; only S3 setups pay for it.
    const { S3Backend } = await import('./s3.ts');
    return new RenditionCleanupBackend(await S3Backend.open(config.storage.s3, warn), cache);
  }
  return new RenditionCleanupBackend(await FileBackend.open(join(config.dataDir, 'storage')), cache);
}
