import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const VERSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NAME = /^[a-z0-9.-]{1,64}$/;

/**
 * Rendered images on disk (decision 228): `DATA_DIR/storage/renditions/<2 chars>/<version>/<name>`.
 * Keyed by the object's version — a replaced object has a new version, so a stale rendition is never
 * found — and removed with the blob of that version (`withRenditionCleanup`), so deleting or erasing
 * an object takes its derivatives with it. At most `perVersion` renditions per version are kept (a
 * caller cycling through sizes cannot fill the disk); further ones are rendered and not kept.
 */
export class RenditionCache {
  constructor(
    readonly root: string,
    private readonly perVersion = 16,
  ) {}

  private dirOf(version: string): string {
    if (!VERSION.test(version)) throw new Error(`invalid version ${JSON.stringify(version)}`);
    return join(this.root, version.slice(0, 2), version);
  }

  /** The path of a kept rendition, or undefined. */
  async find(version: string, name: string): Promise<{ path: string; size: number } | undefined> {
    const path = join(this.dirOf(version), checkName(name));
    try {
      const info = await stat(path);
      return { path, size: info.size };
    } catch {
      return undefined;
    }
  }

  /** Keeps a rendition (atomically: written aside, renamed into place) unless the version has enough. */
  async keep(version: string, name: string, bytes: Buffer): Promise<void> {
    const dir = this.dirOf(version);
    const target = join(dir, checkName(name));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const present = await readdir(dir);
    if (present.filter((entry) => !entry.endsWith('.part')).length >= this.perVersion) return;
    const temporary = join(dir, `${randomBytes(6).toString('hex')}.part`);
    try {
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /** Removes every rendition of these versions (keys that are not versions own none). */
  async removeFor(versions: string[]): Promise<void> {
    for (const version of versions) {
      if (!VERSION.test(version)) continue;
      await rm(this.dirOf(version), { recursive: true, force: true });
    }
  }
}

function checkName(name: string): string {
  if (!NAME.test(name) || name.includes('..')) throw new Error(`invalid rendition name ${name}`);
  return name;
}
