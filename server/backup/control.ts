import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rm, unlink } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Database } from '../db/driver.ts';
import type { Migration } from './archive.ts';
import { checkpoint, migrationsApplied } from './db.ts';
import { CONTROL_SOCKET, prestageSnapshot, SETTLE_MS, STAGING_PREFIX, stageSnapshot } from './snapshot.ts';

/**
 * The embedded server's control socket, DATA_DIR/control.sock (decision 215). `npm run backup` asks
 * the running server for a snapshot here: the server holds its database (nothing commits), writes
 * what is committed to disk, sets DATA_DIR's data aside in a staging directory, and lets go — a pause
 * of a checkpoint, a copy of the database files and a hard link per stored file. The command then
 * writes the archive from the staging directory at its own pace, in its own process.
 *
 * A Unix socket file in DATA_DIR, mode 0600: only the account that owns the install can connect, and
 * nothing listens on the network. One request per connection, one JSON line each way.
 */

export interface SnapshotRequest {
  op: 'snapshot';
  /** The asking command's pid: the staging directory is named after it, so a dead one's is found. */
  pid: number;
}

export type SnapshotReply =
  | {
      ok: true;
      /** The staging directory's name inside DATA_DIR. */
      staging: string;
      files: string[];
      directories: string[];
      snapshotPoint: string;
      pauseMs: number;
      migrations: Migration[];
    }
  | { ok: false; error: string };

export interface ControlSocket {
  close(): Promise<void>;
}

export interface ControlLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export async function snapshotOf(db: Database, dataDir: string, pid: number): Promise<SnapshotReply> {
  if (!db.quiesce) return { ok: false, error: 'this server does not use the embedded database' };
  const staging = `${STAGING_PREFIX}${pid}-${randomBytes(4).toString('hex')}`;
  const path = join(dataDir, staging);
  await mkdir(path, { mode: 0o700 });
  try {
    // While writers still run: most dirty pages reach the disk (so the checkpoint taken while they
    // wait has little left to write), the files are set aside a first time, and — a second after a
    // second checkpoint, so that what it wrote counts as settled (see snapshot.ts) — a second time,
    // copying only what changed. What the pause must copy again is then what the last moments wrote.
    await checkpoint(db);
    const first = await prestageSnapshot(dataDir, path);
    await checkpoint(db);
    await delay(SETTLE_MS);
    const prestaged = await prestageSnapshot(dataDir, path, first);
    // Writers wait from here: no transaction starts once the database is asked for, through the
    // checkpoint `quiesce` takes, until the files are set aside.
    const asked = performance.now();
    const taken = await db.quiesce(async (held) => {
      const snapshotPoint = new Date().toISOString();
      const rows = await migrationsApplied(held);
      const staged = await stageSnapshot(dataDir, path, prestaged);
      return { snapshotPoint, migrations: rows, staged, pauseMs: performance.now() - asked };
    });
    return {
      ok: true,
      staging,
      files: taken.staged.files,
      directories: taken.staged.directories,
      snapshotPoint: taken.snapshotPoint,
      pauseMs: Math.round(taken.pauseMs),
      migrations: taken.migrations,
    };
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    throw error;
  }
}

export async function openControlSocket(
  db: Database,
  dataDir: string,
  log: ControlLog,
): Promise<ControlSocket> {
  const path = join(dataDir, CONTROL_SOCKET);
  // This server holds DATA_DIR's lock: a socket file left here is a dead server's.
  await unlink(path).catch(() => {});
  let busy = false;
  const server = net.createServer((socket) => {
    let data = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy());
    const reply = (value: SnapshotReply) => socket.end(`${JSON.stringify(value)}\n`);
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      data += chunk;
      if (data.length > 10_000) return socket.destroy();
      if (!data.includes('\n')) return;
      socket.setTimeout(0);
      let request: SnapshotRequest;
      try {
        request = JSON.parse(data.slice(0, data.indexOf('\n')));
      } catch {
        return reply({ ok: false, error: 'not a JSON request' });
      }
      if (request.op !== 'snapshot' || !Number.isSafeInteger(request.pid)) {
        return reply({ ok: false, error: 'unknown request' });
      }
      if (busy) return reply({ ok: false, error: 'another backup of this install is being taken' });
      busy = true;
      snapshotOf(db, dataDir, request.pid)
        .then((result) => {
          if (result.ok) {
            log.info({ pauseMs: result.pauseMs, files: result.files.length }, 'backup: snapshot set aside');
          }
          reply(result);
        })
        .catch((error) => {
          log.error({ err: error }, 'backup: the snapshot failed');
          reply({ ok: false, error: String(error instanceof Error ? error.message : error) });
        })
        .finally(() => {
          busy = false;
        });
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    await chmod(path, 0o600);
  } catch (error) {
    // A DATA_DIR path too long for a socket name (about 100 bytes): the server runs; a backup of it
    // running needs a shorter path (the backup command says so).
    log.error({ err: error, path }, 'backup: the control socket could not be opened');
    server.close();
    return { close: async () => {} };
  }
  server.unref();
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        unlink(path).catch(() => {});
      }),
  };
}
