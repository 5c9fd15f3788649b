import { join } from 'node:path';
import type { Config } from '../../config.ts';
import type { StorageBackend } from './backend.ts';
import { FileBackend } from './file.ts';
import type { Warn } from './s3.ts';

/** The backend STORAGE_BACKEND names: DATA_DIR/storage (default) or the configured S3 bucket. */
export async function openBackend(config: Config, warn: Warn): Promise<StorageBackend> {
  if (config.storageBackend === 's3') {
    // The AWS SDK takes a noticeable part of start-up to load; only S3 setups pay for it.
    const { S3Backend } = await import('./s3.ts');
    return S3Backend.open(config.storage.s3, warn);
  }
  return FileBackend.open(join(config.dataDir, 'storage'));
}
