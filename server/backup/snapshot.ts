import {
  type BigIntStats,
  constants,
  copyFileSync,
  linkSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a backup holds of DATA_DIR, and how it is set aside at the snapshot point (decision 215).
 *
 * The embedded database (`db/`) is copied: PostgreSQL changes its files in place. Everything else the
 * product keeps there — storage blobs, keys.json, the mail outbox — is hard-linked: a blob is written
 * to a staging file and renamed into place, never changed afterwards, and removed by unlinking, so a
 * link made at the snapshot point keeps that version however the server goes on. Both are made first
 * while writers run (`prestageSnapshot`); at the snapshot point only what changed since is set aside
 * again, which keeps the writers' pause short however large the install.
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

/** A file's identity when it was set aside before the snapshot point (see `prestageSnapshot`). */
interface SetAside {
  /** For a copied database file: its size and modification time, read before it was copied. */
  size?: bigint;
  mtimeNs?: bigint;
  /** Whether it had not been written for a second when read: a later write must change its time. */
  settled?: boolean;
  /** For a linked file: its inode (a file replaced by rename, like keys.json, gets a new one). */
  ino?: bigint;
}

/** What `prestageSnapshot` set aside while writers still ran, by path. */
export type Prestaged = Map<string, SetAside>;

/**
 * How sure "unchanged" must be: a file written within this long of being read is copied again (a file
 * system's clock may tick this coarsely, so a second write could leave the time as the first set it).
 */
export const SETTLE_MS = 1000;
const SETTLE_NS = BigInt(SETTLE_MS) * 1_000_000n;

type Visit = (path: string, inDatabase: boolean) => boolean | Promise<boolean>;

/**
 * Walks DATA_DIR's data (what `skippedAtTop` and SKIPPED_PATHS leave), making each directory in
 * `staging` and calling `visit` for each file; a file whose visit answers false is not in the snapshot.
 */
async function walkData(dataDir: string, staging: string, visit: Visit, sync: boolean): Promise<Staged> {
  const staged: Staged = { files: [], directories: [] };
  const walk = async (relative: string, inDatabase: boolean): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      const directory = join(dataDir, relative);
      entries = sync
        ? readdirSync(directory, { withFileTypes: true })
        : await readdir(directory, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    if (sync) mkdirSync(join(staging, relative), { recursive: true, mode: 0o700 });
    else await mkdir(join(staging, relative), { recursive: true, mode: 0o700 });
    if (relative) staged.directories.push(relative);
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (relative === '' && skippedAtTop(entry.name)) continue;
      if (SKIPPED_PATHS.has(path)) continue;
      if (entry.isDirectory()) {
        await walk(path, inDatabase || (relative === '' && entry.name === 'db'));
        continue;
      }
      if (!entry.isFile()) continue; // sockets, links: nothing the product keeps
      if (await visit(path, inDatabase)) staged.files.push(path);
    }
  };
  await walk('', false);
  return staged;
}

/** Links `from` at `to`, or copies it where the file system has no hard links. */
function linkSyncOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EXDEV' && code !== 'EMLINK') throw error;
    copyFileSync(from, to, constants.COPYFILE_FICLONE);
  }
}

/**
 * Before the snapshot point, while writers still run: copies the database files and links the rest
 * into `staging`, noting what each was. The copies may be torn (the database writes on meanwhile);
 * `stageSnapshot` copies again, while nothing commits, every file that may have changed since — so
 * the writers' pause is a walk and the files written in the last moments, not the whole database.
 * Given what an earlier pass set aside in the same `staging`, only what may have changed since that
 * pass is set aside again (a second pass shortens the list the pause has to copy).
 */
export async function prestageSnapshot(
  dataDir: string,
  staging: string,
  earlier?: Prestaged,
): Promise<Prestaged> {
  const prestaged: Prestaged = new Map();
  await walkData(
    dataDir,
    staging,
    async (path, inDatabase) => {
      const from = join(dataDir, path);
      const to = join(staging, path);
      try {
        const readAt = BigInt(Date.now()) * 1_000_000n;
        const before = await stat(from, { bigint: true });
        const kept = earlier?.get(path);
        if (kept && sameFile(kept, before, inDatabase)) {
          prestaged.set(path, kept);
          return true;
        }
        if (kept) await rm(to, { force: true });
        if (inDatabase) {
          await copyFile(from, to, constants.COPYFILE_FICLONE);
          prestaged.set(path, {
            size: before.size,
            mtimeNs: before.mtimeNs,
            settled: before.mtimeNs < readAt - SETTLE_NS,
          });
        } else {
          linkSyncOrCopy(from, to);
          prestaged.set(path, { ino: before.ino });
        }
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    false,
  );
  return prestaged;
}

/** Whether a file, as `stat` reads it now, is still the one set aside as `before`. */
function sameFile(before: SetAside, now: BigIntStats, inDatabase: boolean): boolean {
  if (!inDatabase) return before.ino === now.ino;
  return before.settled === true && before.size === now.size && before.mtimeNs === now.mtimeNs;
}

/** Whether the file at `from` is still what was set aside before (`prestageSnapshot`). */
function unchangedSince(
  path: string,
  from: string,
  before: SetAside | undefined,
  inDatabase: boolean,
): boolean {
  if (before === undefined) return false;
  // Stored blobs and mails are written once under a new name and never changed or replaced: the
  // name listed again is the file linked before (one stat less per file while writers wait).
  if (WRITTEN_ONCE.some((prefix) => path.startsWith(prefix))) return true;
  return sameFile(before, statSync(from, { bigint: true }), inDatabase);
}

/** Where every file is written once, under a name never used again (decision 215). */
const WRITTEN_ONCE = ['storage/objects/', 'mail/'];

/**
 * Sets DATA_DIR's data aside in `staging` (a directory inside DATA_DIR). The caller makes sure nothing
 * commits meanwhile: the server holds its database (`Database.quiesce`), or the command holds
 * DATA_DIR's lock while no server runs. With `prestaged` (what `prestageSnapshot` set aside in the
 * same `staging`), only files that may have changed since are copied or linked again. Synchronous file
 * calls: while the database is held nothing else could run anyway, and they cost a fraction of the
 * promise-per-file ones. Returns the files set aside.
 */
export async function stageSnapshot(
  dataDir: string,
  staging: string,
  prestaged?: Prestaged,
): Promise<Staged> {
  return walkData(
    dataDir,
    staging,
    (path, inDatabase) => {
      const from = join(dataDir, path);
      const to = join(staging, path);
      try {
        if (unchangedSince(path, from, prestaged?.get(path), inDatabase)) return true;
        if (prestaged?.has(path)) rmSync(to, { force: true });
        if (inDatabase) copyFileSync(from, to, constants.COPYFILE_FICLONE);
        else linkSyncOrCopy(from, to);
        return true;
      } catch (error) {
        // Unlinked since the directory was read: a blob whose row was deleted before the snapshot
        // point (blobs are removed only after their row's deletion commits), or a database file the
        // database removed.
        if (isMissing(error)) return false;
        throw error;
      }
    },
    true,
  );
}
