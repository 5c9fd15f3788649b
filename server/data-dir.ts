import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OperatorError } from './operator-error.ts';

export class DataDirError extends OperatorError {}

/** Creates DATA_DIR if needed and proves it is writable before anything else relies on it. */
export async function prepareDataDir(dataDir: string): Promise<void> {
  const probe = join(dataDir, `.write-test-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(probe, '');
    await rm(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new DataDirError(`DATA_DIR ${dataDir} is not a writable directory (${code})`);
  }
}
