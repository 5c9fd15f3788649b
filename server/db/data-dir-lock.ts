import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { OperatorError } from '../operator-error.ts';

/**
 * PGlite has no lock of its own: two processes opening one data directory would corrupt it. The
 * embedded database is therefore guarded by an exclusive lock taken before it opens.
 *
 * On Linux the lock is a listening socket in the abstract namespace, named after the directory's real
 * path. The kernel guarantees only one process can hold the name and releases it the moment that
 * process dies (even by kill -9), so there is never a stale lock to clean up. Elsewhere, a pid file
 * created with O_EXCL is used, taken over when its process no longer exists.
 */
export class DataDirLockedError extends OperatorError {
  constructor(dataDir: string, pid: number | undefined) {
    super(
      `DATA_DIR ${dataDir} is already in use by another HighGrade server${pid ? ` (pid ${pid})` : ''}. ` +
        'Stop that server first, or start this one with another DATA_DIR.',
    );
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

function askHolder(name: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(name);
    let data = '';
    const done = (pid?: number) => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(500, () => done());
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('end', () => done(Number(JSON.parse(data || '{}').pid) || undefined));
    socket.on('error', () => done());
  });
}

async function abstractSocketLock(dataDir: string): Promise<DataDirLock> {
  const key = createHash('sha256')
    .update(await realpath(dataDir))
    .digest('hex')
    .slice(0, 40);
  const name = `\0highgrade-db-${key}`;
  const server = net.createServer((socket) => socket.end(JSON.stringify({ pid: process.pid })));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(name, () => resolve());
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new DataDirLockedError(dataDir, await askHolder(name));
    }
    throw error;
  }
  server.unref();
  return {
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function pidFileLock(dataDir: string): DataDirLock {
  const path = join(dataDir, 'db.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release: async () => {
          try {
            if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(path, 'utf8'));
      if (pid && isAlive(pid)) throw new DataDirLockedError(dataDir, pid);
      unlinkSync(path); // left behind by a process that no longer exists
    }
  }
  throw new DataDirLockedError(dataDir, undefined);
}

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  return process.platform === 'linux' ? abstractSocketLock(dataDir) : pidFileLock(dataDir);
}
