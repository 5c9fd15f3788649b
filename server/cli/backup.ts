import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import net from 'node:net';
import { setPriority } from 'node:os';
import { join, resolve } from 'node:path';
import {
  ArchiveWriter,
  type BackupHeader,
  FORMAT,
  MANIFEST,
  MARKER,
  type Manifest,
  type Migration,
} from '../backup/archive.ts';
import type { SnapshotReply } from '../backup/control.ts';
import { migrationsApplied } from '../backup/db.ts';
import { CONTROL_SOCKET, STAGING_PREFIX, stageSnapshot } from '../backup/snapshot.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { OperatorError } from '../operator-error.ts';
import { PROJECT_ROOT } from '../paths.ts';

/**
 * `npm run backup [-- <file>]`: a consistent snapshot of an embedded install (the database and every
 * file the product keeps in DATA_DIR) as one tar file, taken while the server runs (decision 215).
 * With a server running it asks the server for the snapshot point over DATA_DIR/control.sock; with
 * none it takes DATA_DIR's lock, so none starts meanwhile. PostgreSQL and S3 installs are refused with
 * their own tools' guidance (docs/deploy.md, "Backups").
 */

export const POSTGRES_GUIDANCE = [
  'This install keeps its database in PostgreSQL (DATABASE_URL is set): back it up with PostgreSQL’s own tools —',
  '  pg_dump --format=custom --file=highgrade.dump "$DATABASE_URL"   (a consistent dump while servers run; restore with pg_restore)',
  '  or continuous archiving with point-in-time recovery (pg_basebackup + WAL archiving, or your provider’s PITR).',
  'Keep DATA_DIR/keys.json (or your JWT_SECRET / keys settings) with it. See docs/deploy.md, "Backups".',
].join('\n');

export const S3_GUIDANCE = [
  'This install keeps its files in S3 (STORAGE_BACKEND=s3): protect them in the bucket itself —',
  '  turn on bucket versioning (aws s3api put-bucket-versioning --bucket <bucket> --versioning-configuration Status=Enabled)',
  '  with a lifecycle rule for old versions, and replication to another bucket or region if the data matter.',
  'Blobs are never overwritten (each upload is a new key), so a version-enabled bucket restores to any point. See docs/deploy.md, "Backups".',
].join('\n');

class UsageError extends OperatorError {}

const USAGE = `Usage: npm run backup [-- <file>]

Writes a snapshot of the embedded install in DATA_DIR (database, storage files, keys, mail outbox)
to <file> (default: highgrade-backup-<time>.tar here), while the server runs or not.
Restore it with: npm run restore -- <file>`;

function refuseUnsupported(config: Config): void {
  const reasons = [
    ...(config.databaseUrl ? [POSTGRES_GUIDANCE] : []),
    ...(config.storageBackend === 's3' ? [S3_GUIDANCE] : []),
  ];
  if (reasons.length > 0) {
    throw new OperatorError(
      `npm run backup copies embedded installs only (the database and files in DATA_DIR).\n${reasons.join('\n\n')}`,
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Staging directories of backup commands that died before they removed theirs. */
async function removeAbandonedStaging(dataDir: string): Promise<void> {
  for (const entry of await readdir(dataDir)) {
    const pid = Number(/^\.backup-(\d+)-/.exec(entry)?.[1]);
    if (pid && !isAlive(pid)) await rm(join(dataDir, entry), { recursive: true, force: true });
  }
}

function askServer(dataDir: string): Promise<SnapshotReply> {
  const path = join(dataDir, CONTROL_SOCKET);
  return new Promise((resolvePromise, reject) => {
    const socket = net.connect(path);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ op: 'snapshot', pid: process.pid })}\n`));
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('end', () => {
      try {
        resolvePromise(JSON.parse(data) as SnapshotReply);
      } catch {
        reject(new OperatorError('the running server gave no answer to the snapshot request'));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new OperatorError(
          `A HighGrade server is running on DATA_DIR ${dataDir}, but its control socket ${path} cannot be reached (${error.code}). ` +
            (path.length > 100
              ? 'The path is too long for a socket: use a shorter DATA_DIR path.'
              : 'Restart that server with this version of HighGrade, or stop it and run the backup again.'),
        ),
      ),
    );
  });
}

/** Opens the snapshot's own copy of the database to read the migrations applied: it must open. */
async function migrationsOf(databaseDir: string): Promise<Migration[]> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create(databaseDir);
  try {
    return await migrationsApplied(pg);
  } finally {
    await pg.close();
  }
}

interface Snapshot {
  staging: string;
  files: string[];
  directories: string[];
  header: BackupHeader;
}

async function productVersion(): Promise<string> {
  return JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')).version;
}

async function takeSnapshot(dataDir: string, say: (line: string) => void): Promise<Snapshot> {
  const product = { name: 'highgrade', version: await productVersion() };
  let lock: Awaited<ReturnType<typeof lockDataDir>> | undefined;
  try {
    lock = await lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
  }
  if (!lock) {
    say('A server is running on this DATA_DIR: asking it for a snapshot.');
    const reply = await askServer(dataDir);
    if (!reply.ok) throw new OperatorError(`The running server could not take the snapshot: ${reply.error}`);
    say(`snapshot point ${reply.snapshotPoint} (writers waited ${reply.pauseMs} ms)`);
    return {
      staging: join(dataDir, reply.staging),
      files: reply.files,
      directories: reply.directories,
      header: {
        format: FORMAT,
        product,
        snapshotPoint: reply.snapshotPoint,
        source: 'running server',
        pauseMs: reply.pauseMs,
        migrations: reply.migrations,
      },
    };
  }
  // No server: holding the lock, the directory is still; its database is as the last server left it.
  const staging = join(dataDir, `${STAGING_PREFIX}${process.pid}-offline`);
  try {
    await mkdir(staging, { mode: 0o700 });
    const snapshotPoint = new Date().toISOString();
    const { files, directories } = await stageSnapshot(dataDir, staging);
    await lock.release();
    lock = undefined;
    say(`snapshot point ${snapshotPoint} (no server was running)`);
    const migrations = await migrationsOf(join(staging, 'db'));
    return {
      staging,
      files,
      directories,
      header: { format: FORMAT, product, snapshotPoint, source: 'stopped install', migrations },
    };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    await lock?.release();
  }
}

function defaultTarget(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return resolve(`highgrade-backup-${stamp}.tar`);
}

async function main(argv: string[]): Promise<number> {
  if (argv.length > 1 || argv[0] === '--help' || argv[0]?.startsWith('-')) throw new UsageError(USAGE);
  const config = loadConfig();
  refuseUnsupported(config);
  const target = argv[0] ? resolve(argv[0]) : defaultTarget();
  const dataDir = config.dataDir;
  if (!existsSync(join(dataDir, 'db', 'PG_VERSION'))) {
    throw new OperatorError(
      `There is no HighGrade install in DATA_DIR ${dataDir} (no database): nothing to back up.`,
    );
  }
  if (existsSync(target))
    throw new OperatorError(`${target} already exists: name a new file for the backup.`);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const started = performance.now();

  // Writing and hashing the archive is background work: the running server's requests come first
  // (on a 2-core machine the archive's SHA-256 otherwise doubled the writes' p99 during a backup).
  try {
    setPriority(19);
  } catch {
    // Not allowed here (some containers): the archive is written at normal priority.
  }
  await removeAbandonedStaging(dataDir);
  const snapshot = await takeSnapshot(dataDir, say);
  const partial = `${target}.partial`;
  let writer: ArchiveWriter | undefined;
  try {
    writer = await ArchiveWriter.create(partial);
    await writer.addJson(MARKER, snapshot.header);
    for (const path of snapshot.directories) await writer.addDirectory(path);
    for (const path of snapshot.files) await writer.addFile(path, join(snapshot.staging, path));
    const manifest: Manifest = {
      ...snapshot.header,
      createdAt: new Date().toISOString(),
      directories: snapshot.directories,
      files: writer.files,
      totalBytes: writer.totalBytes,
    };
    await writer.addJson(MANIFEST, manifest);
    await writer.finish();
    await rename(partial, target);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const megabytes = (manifest.totalBytes / 1e6).toFixed(1);
    say(`Wrote ${target}: ${manifest.files.length} files, ${megabytes} MB, in ${seconds} s.`);
    say(`Restore it into an empty DATA_DIR with: npm run restore -- ${target}`);
    return 0;
  } catch (error) {
    await writer?.abandon();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(snapshot.staging, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message =
    error instanceof UsageError
      ? error.message
      : `highgrade: ${error instanceof OperatorError || error instanceof ConfigError ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exitCode = error instanceof UsageError ? 64 : 1;
}
