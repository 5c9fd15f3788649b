import { createHash } from 'node:crypto';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { OperatorError } from '../operator-error.ts';

/**
 * A backup is one plain tar file (POSIX ustar, readable by any `tar`): first `highgrade-backup.json`
 * (what it is), then every file of DATA_DIR the snapshot holds, then `MANIFEST.json` with each file's
 * size and SHA-256, the migrations applied and the times. Not compressed: most of an install is
 * images and documents that do not compress, and gzip would cost the server's CPU while it serves.
 */

export const MARKER = 'highgrade-backup.json';
export const MANIFEST = 'MANIFEST.json';
export const FORMAT = 1;

export interface Migration {
  layer: string;
  name: string;
  checksum: string;
}

export interface BackupHeader {
  format: number;
  product: { name: string; version: string };
  /** The moment the data are from: every write acknowledged before it is in the backup. */
  snapshotPoint: string;
  /** `running server`: taken from a server while it served; `stopped install`: no server ran. */
  source: 'running server' | 'stopped install';
  /** How long the server held its database for the snapshot (running server only). */
  pauseMs?: number;
  migrations: Migration[];
}

export interface Manifest extends BackupHeader {
  /** When the archive was complete. */
  createdAt: string;
  directories: string[];
  files: { path: string; size: number; sha256: string }[];
  totalBytes: number;
}

export class ArchiveError extends OperatorError {}

const BLOCK = 512;
const CHUNK = 1 << 20;
const MAX_JSON = 256 << 20;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function tarHeader(path: string, size: number, mtime: Date, type: '0' | '5' = '0'): Buffer {
  const block = Buffer.alloc(BLOCK);
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(path) > 100) {
    const cut = path.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(path.slice(cut + 1)) > 100)
      throw new Error(`path too long for a tar entry: ${path}`);
    prefix = path.slice(0, cut);
    name = path.slice(cut + 1);
  }
  if (size > 0o77777777777) throw new Error(`${path} is larger than a tar entry may be (8 GiB)`);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(type === '5' ? 0o700 : 0o600, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest);
}

/** Writes a tar archive to `target`, entry by entry, hashing each file as it goes. */
export class ArchiveWriter {
  private readonly buffer = Buffer.allocUnsafe(CHUNK);
  readonly files: Manifest['files'] = [];
  totalBytes = 0;

  private constructor(private readonly out: FileHandle) {}

  static async create(target: string): Promise<ArchiveWriter> {
    return new ArchiveWriter(await open(target, 'wx', 0o600));
  }

  async addJson(path: string, value: unknown): Promise<void> {
    const body = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
    await this.out.write(tarHeader(path, body.length, new Date()));
    await this.out.write(body);
    await this.out.write(padding(body.length));
  }

  async addDirectory(path: string): Promise<void> {
    await this.out.write(tarHeader(`${path}/`, 0, new Date(), '5'));
  }

  /** Adds the file at `from` as `path`; its size is what it holds now (files set aside do not change). */
  async addFile(path: string, from: string): Promise<void> {
    const input = await open(from, 'r');
    try {
      const { size, mtime } = await input.stat();
      await this.out.write(tarHeader(path, size, mtime));
      const hash = createHash('sha256');
      let left = size;
      while (left > 0) {
        const { bytesRead } = await input.read(this.buffer, 0, Math.min(CHUNK, left), null);
        if (bytesRead === 0) throw new Error(`${from} became shorter while it was read`);
        const chunk = this.buffer.subarray(0, bytesRead);
        hash.update(chunk);
        await this.out.write(chunk);
        left -= bytesRead;
      }
      await this.out.write(padding(size));
      this.files.push({ path, size, sha256: hash.digest('hex') });
      this.totalBytes += size;
    } finally {
      await input.close();
    }
  }

  /** Ends the archive (two zero blocks) and makes it durable. */
  async finish(): Promise<void> {
    await this.out.write(Buffer.alloc(BLOCK * 2));
    await this.out.sync();
    await this.out.close();
  }

  async abandon(): Promise<void> {
    await this.out.close().catch(() => {});
  }
}

/** A relative path with no way out of the directory it is extracted into. */
function safePath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

function parseOctal(field: Buffer): number {
  const text = field
    .toString('ascii')
    .replace(/[\0 ]+$/g, '')
    .trim();
  if (!/^[0-7]*$/.test(text)) return Number.NaN;
  return text === '' ? 0 : Number.parseInt(text, 8);
}

function cString(field: Buffer): string {
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}

/**
 * Reads a backup made by ArchiveWriter into the directory `into`, checking every header, every file
 * against the manifest, and that nothing is missing or extra. Throws ArchiveError saying what is wrong;
 * the caller removes `into` then.
 */
export async function extractArchive(source: string, into: string): Promise<Manifest> {
  let input: FileHandle;
  try {
    input = await open(source, 'r');
  } catch (error) {
    throw new ArchiveError(`cannot read ${source} (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  const damaged = (what: string) => new ArchiveError(`${source} is damaged: ${what}. Nothing was restored.`);
  const buffer = Buffer.allocUnsafe(CHUNK);
  let position = 0;
  const readExactly = async (target: Buffer, length: number): Promise<void> => {
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await input.read(target, filled, length - filled, position);
      if (bytesRead === 0) {
        throw new ArchiveError(
          `${source} ends early, at byte ${position}: the file was cut off (an interrupted copy or a full disk?). Nothing was restored.`,
        );
      }
      filled += bytesRead;
      position += bytesRead;
    }
  };

  try {
    const extracted = new Map<string, { size: number; sha256: string }>();
    const directories = new Set<string>();
    let header: BackupHeader | undefined;
    let manifest: Manifest | undefined;
    const block = Buffer.alloc(BLOCK);
    for (;;) {
      await readExactly(block, BLOCK);
      if (block.every((byte) => byte === 0)) break;
      if (block.toString('ascii', 257, 262) !== 'ustar') {
        throw header
          ? damaged(`an entry header at byte ${position - BLOCK} is not a tar header`)
          : new ArchiveError(
              `${source} is not a HighGrade backup (not a tar archive made by npm run backup).`,
            );
      }
      let sum = 0;
      for (let index = 0; index < BLOCK; index++)
        sum += index >= 148 && index < 156 ? 32 : (block[index] ?? 0);
      if (sum !== parseOctal(block.subarray(148, 156))) {
        throw damaged(`the entry header at byte ${position - BLOCK} fails its checksum`);
      }
      const prefix = cString(block.subarray(345, 500));
      const name = cString(block.subarray(0, 100));
      const type = String.fromCharCode(block[156] ?? 0);
      const named = prefix ? `${prefix}/${name}` : name;
      const path = type === '5' ? named.replace(/\/$/, '') : named;
      const size = parseOctal(block.subarray(124, 136));
      if (!Number.isSafeInteger(size) || size < 0) throw damaged(`the size of ${path} is unreadable`);
      if (type !== '0' && type !== '\0' && type !== '5')
        throw damaged(`${path} is neither a file nor a directory`);
      if (!safePath(path))
        throw damaged(`the entry name ${JSON.stringify(path)} points outside the directory`);
      if (manifest) throw damaged(`${path} follows the manifest`);
      if (type === '5') {
        if (!header) {
          throw new ArchiveError(`${source} is not a HighGrade backup (its first entry is not ${MARKER}).`);
        }
        if (size !== 0) throw damaged(`the directory ${path} has a size`);
        await mkdir(join(into, path), { recursive: true, mode: 0o700 });
        directories.add(path);
        continue;
      }

      if (path === MARKER || path === MANIFEST) {
        if (size > MAX_JSON) throw damaged(`${path} is too large`);
        const body = Buffer.alloc(size);
        await readExactly(body, size);
        await readExactly(Buffer.alloc(padding(size).length), padding(size).length);
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          throw damaged(`${path} is not valid JSON`);
        }
        if (path === MARKER) {
          if (header || extracted.size > 0) throw damaged(`${MARKER} is not the first entry`);
          header = parsed as BackupHeader;
          if (header.format !== FORMAT) {
            throw new ArchiveError(
              `${source} is a backup of format ${header.format}; this version of HighGrade restores format ${FORMAT}.`,
            );
          }
        } else {
          manifest = parsed as Manifest;
        }
        continue;
      }
      if (!header) {
        throw new ArchiveError(`${source} is not a HighGrade backup (its first entry is not ${MARKER}).`);
      }
      if (extracted.has(path)) throw damaged(`${path} appears twice`);
      const target = join(into, path);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      const output = await open(target, 'wx', 0o600);
      const hash = createHash('sha256');
      try {
        let left = size;
        while (left > 0) {
          const length = Math.min(CHUNK, left);
          const chunk = buffer.subarray(0, length);
          await readExactly(chunk, length);
          hash.update(chunk);
          await output.write(chunk);
          left -= length;
        }
        await output.sync();
      } finally {
        await output.close();
      }
      await readExactly(Buffer.alloc(padding(size).length), padding(size).length);
      extracted.set(path, { size, sha256: hash.digest('hex') });
    }

    if (!header) throw new ArchiveError(`${source} is not a HighGrade backup (it is empty).`);
    if (!manifest || !Array.isArray(manifest.files))
      throw damaged(`it has no ${MANIFEST} (cut off before the end?)`);
    for (const file of manifest.files) {
      const found = extracted.get(file.path);
      if (!found) throw damaged(`${file.path} is listed in the manifest but missing`);
      if (found.size !== file.size || found.sha256 !== file.sha256) {
        throw damaged(`${file.path} does not match its checksum in the manifest`);
      }
      extracted.delete(file.path);
    }
    for (const directory of manifest.directories ?? []) {
      if (!directories.delete(directory))
        throw damaged(`the directory ${directory} is listed in the manifest but missing`);
    }
    const extraDirectory = directories.values().next();
    if (!extraDirectory.done) throw damaged(`the directory ${extraDirectory.value} is not in the manifest`);
    const extra = extracted.keys().next();
    if (!extra.done) throw damaged(`${extra.value} is not in the manifest`);
    return manifest;
  } finally {
    await input.close();
  }
}
