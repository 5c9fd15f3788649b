import { mkdir, mkdtemp, readFile, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prestageSnapshot, stageSnapshot } from './snapshot.ts';

/**
 * The two passes of a snapshot (decision 215): files set aside while writers run, then, at the
 * snapshot point, only what may have changed since. What a snapshot holds must be DATA_DIR as it is at
 * the second pass, whatever happened between the two.
 */
describe('a snapshot set aside in two passes', () => {
  let dataDir: string;
  let staging: string;
  const longAgo = new Date(Date.now() - 60_000);

  async function put(path: string, body: string, settled = true): Promise<void> {
    await mkdir(join(dataDir, path, '..'), { recursive: true });
    await writeFile(join(dataDir, path), body);
    if (settled) await utimes(join(dataDir, path), longAgo, longAgo);
  }

  const staged = (path: string) => readFile(join(staging, path), 'utf8');

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hg-snapshot-'));
    staging = join(dataDir, '.backup-1-test');
    await mkdir(staging);
    await put('db/base/1/1259', 'relation, first version');
    await put('db/pg_wal/000000010000000000000001', 'wal, first records');
    await put('db/global/pg_control', 'control');
    await put('storage/objects/bucket/a.png', 'blob a');
    await put('storage/objects/bucket/gone.png', 'blob whose row is being deleted');
    await put('keys.json', '{"version":1}');
    await put('db.lock', 'runtime');
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('copies again every database file written since the first pass, keeps the rest as set aside', async () => {
    const prestaged = await prestageSnapshot(dataDir, staging);
    // Writers go on: a page rewritten in place (same size), the log grows, a new relation file appears.
    await put('db/base/1/1259', 'relation, other version', false);
    await put('db/pg_wal/000000010000000000000001', 'wal, first records and more', false);
    await put('db/base/1/16384', 'a new table');
    const result = await stageSnapshot(dataDir, staging, prestaged);

    expect(await staged('db/base/1/1259')).toBe('relation, other version');
    expect(await staged('db/pg_wal/000000010000000000000001')).toBe('wal, first records and more');
    expect(await staged('db/base/1/16384')).toBe('a new table');
    expect(await staged('db/global/pg_control')).toBe('control');
    expect(result.files.sort()).toEqual(
      [
        'db/base/1/1259',
        'db/base/1/16384',
        'db/global/pg_control',
        'db/pg_wal/000000010000000000000001',
        'keys.json',
        'storage/objects/bucket/a.png',
        'storage/objects/bucket/gone.png',
      ].sort(),
    );
    expect(result.directories).toContain('db/pg_wal');
  });

  it('a second pass copies only what changed since the first, and the snapshot point what changed since the second', async () => {
    const first = await prestageSnapshot(dataDir, staging);
    await put('db/base/1/1259', 'relation, second version', false);
    await unlink(join(dataDir, 'storage/objects/bucket/gone.png'));
    const second = await prestageSnapshot(dataDir, staging, first);
    expect(await staged('db/base/1/1259')).toBe('relation, second version');
    expect(second.get('db/global/pg_control')).toBe(first.get('db/global/pg_control'));
    expect(second.has('storage/objects/bucket/gone.png')).toBe(false);
    await put('db/pg_wal/000000010000000000000001', 'wal, and a last record', false);
    const result = await stageSnapshot(dataDir, staging, second);
    expect(await staged('db/pg_wal/000000010000000000000001')).toBe('wal, and a last record');
    expect(await staged('db/base/1/1259')).toBe('relation, second version');
    expect(result.files).not.toContain('storage/objects/bucket/gone.png');
  });

  it('copies again a database file written within a second of the first pass, even if its time and size look the same', async () => {
    // Written just now: a second write in the same clock tick could leave its time as it was.
    await put('db/base/1/1259', 'relation, first version', false);
    const prestaged = await prestageSnapshot(dataDir, staging);
    const before = await stat(join(dataDir, 'db/base/1/1259'));
    await writeFile(join(dataDir, 'db/base/1/1259'), 'relation, XXXXX version');
    await utimes(join(dataDir, 'db/base/1/1259'), before.atime, before.mtime);
    await stageSnapshot(dataDir, staging, prestaged);
    expect(await staged('db/base/1/1259')).toBe('relation, XXXXX version');
  });

  it('links again a file replaced by rename, and leaves out files removed since the first pass', async () => {
    const prestaged = await prestageSnapshot(dataDir, staging);
    await writeFile(join(dataDir, 'keys.json.tmp'), '{"version":2}');
    await rename(join(dataDir, 'keys.json.tmp'), join(dataDir, 'keys.json'));
    await unlink(join(dataDir, 'storage/objects/bucket/gone.png'));
    await unlink(join(dataDir, 'db/pg_wal/000000010000000000000001'));
    await put('storage/objects/bucket/b.png', 'blob b');
    const result = await stageSnapshot(dataDir, staging, prestaged);

    expect(await staged('keys.json')).toBe('{"version":2}');
    expect(await staged('storage/objects/bucket/b.png')).toBe('blob b');
    expect(result.files).not.toContain('storage/objects/bucket/gone.png');
    expect(result.files).not.toContain('db/pg_wal/000000010000000000000001');
    expect(result.files).not.toContain('db.lock');
  });

  it('without a first pass, sets everything aside at once (the command, when no server runs)', async () => {
    const result = await stageSnapshot(dataDir, staging);
    expect(result.files).toHaveLength(6);
    expect(await staged('db/base/1/1259')).toBe('relation, first version');
    expect(await staged('storage/objects/bucket/a.png')).toBe('blob a');
  });
});
