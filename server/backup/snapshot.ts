import { constants } from 'node:fs';
import { copyFile, link, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a backup holds of DATA_DIR, and how it is set aside at the snapshot point (decision 215).
 *
 * The embedded database (`db/`) is copied: PostgreSQL changes its files in place. Everything else the
 * product keeps there — storage blobs, keys.json, the mail outbox — is hard-linked: a blob is written
 * to a staging file and renamed into place, never changed afterwards, and removed by unlinking, so a
 * link made at the snapshot point keeps that version however the server goes on. Linking a thousand
 * files takes milliseconds, which is what keeps the writers' pause short for a large install.
 */

/** Names directly under DATA_DIR that are not data: locks, sockets, scratch, caches. */
function skippedAtTop(name: string): boolean {
  return (
    name === 'db.lock' ||
    name === CONTROL_SOCKET ||
    name === 'og' || // share-image cache, drawn again on demand
    name.startsWith(STAGING_PREFIX) ||
    name.startsWith('db.init-') ||
    name.startsWith('.write-test-') ||
    name.endsWith('.tmp') // keys.json being replaced
  );
}

/**
 * Uploads in flight (not yet any row's blob), and the embedded database's note of the process that
 * has it open (runtime state: a restored copy is opened by a new process).
 */
const SKIPPED_PATHS = new Set(['storage/.staging', 'db/postmaster.pid']);

/** The running server's control socket in DATA_DIR (mode 0600): how `npm run backup` reaches it. */
export const CONTROL_SOCKET = 'control.sock';
/** Directories a snapshot is set aside in, inside DATA_DIR (same file system, for hard links). */
export const STAGING_PREFIX = '.backup-';

export interface Staged {
  /** Files, relative to DATA_DIR, with forward slashes. */
  files: string[];
  /** Every directory, empty ones too (PostgreSQL needs its empty ones), parents before children. */
  directories: string[];
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Sets DATA_DIR's data aside in `staging` (an empty directory inside DATA_DIR). The caller makes sure
 * nothing commits meanwhile: the server holds its database (`Database.quiesce`), or the command holds
 * DATA_DIR's lock while no server runs. Returns the files set aside.
 */
export async function stageSnapshot(dataDir: string, staging: string): Promise<Staged> {
  const staged: Staged = { files: [], directories: [] };
  const walk = async (relative: string, copy: boolean): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(join(dataDir, relative), { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    await mkdir(join(staging, relative), { recursive: true, mode: 0o700 });
    if (relative) staged.directories.push(relative);
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (relative === '' && skippedAtTop(entry.name)) continue;
      if (SKIPPED_PATHS.has(path)) continue;
      if (entry.isDirectory()) {
        await walk(path, copy || (relative === '' && entry.name === 'db'));
        continue;
      }
      if (!entry.isFile()) continue; // sockets, links: nothing the product keeps
      const from = join(dataDir, path);
      const to = join(staging, path);
      try {
        if (copy) await copyFile(from, to, constants.COPYFILE_FICLONE);
        else
          await link(from, to).catch(async (error: NodeJS.ErrnoException) => {
            // A file system without hard links (or a file owned by another user): copy it instead.
            if (error.code !== 'EPERM' && error.code !== 'EXDEV' && error.code !== 'EMLINK') throw error;
            await copyFile(from, to, constants.COPYFILE_FICLONE);
          });
      } catch (error) {
        // Unlinked since the directory was read: a blob whose row was deleted before the snapshot
        // point (blobs are removed only after their row's deletion commits).
        if (isMissing(error)) continue;
        throw error;
      }
      staged.files.push(path);
    }
  };
  await walk('', false);
  return staged;
}
