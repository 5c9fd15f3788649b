// @databases: both — crash recovery depends on the driver's transactions.
/**
 * The blob journal after a crash (decision 072): a process that died after setting blobs aside but
 * before its transaction committed, and one that died after committing but before purging. The sweep
 * (run at start-up and every few minutes) must restore the first and finish the second, on both
 * backends, without ever bringing back a blob no row references.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productPlatform } from '#server/functions/platform.ts';
import { BlobTrash } from '#server/product/trash/blob-trash.ts';
import type { StorageBackend } from '#server/storage/backends/backend.ts';
import { openBackend } from '#server/storage/backends/index.ts';
import { BACKENDS } from '#tests/support/storage.ts';
import { type Member, seedMember, trashRows } from './functions-support.ts';
import { type StorageTestServer, startStorageServer } from './storage-support.ts';

describe.each(BACKENDS)('the blob journal on the %s backend', (backend) => {
  let t: StorageTestServer;
  let blobs: StorageBackend;
  let trash: BlobTrash;
  let member: Member;

  beforeAll(async () => {
    t = await startStorageServer(backend);
    const { ctx } = t.server.server;
    blobs = await openBackend(ctx.config, () => {});
    trash = new BlobTrash(ctx.db, productPlatform(ctx.keys.jwtSecret, blobs).blobs, ctx.log);
    member = await seedMember(t);
  });
  afterAll(async () => {
    await blobs?.close();
    await t?.close();
  });

  it('puts blobs back when the process died before the transaction committed', async () => {
    const before = await t.blobs();
    const moved = await trash.setAside(randomUUID(), member.blobs);
    expect(moved).toHaveLength(2);
    for (const key of member.blobs) expect(await blobs.exists(key)).toBe(false);
    // A running operation is younger than the lease: the sweep leaves it alone.
    expect(await trash.sweep(3600)).toBe(0);
    expect(await trashRows(t.server.db)).toBe(2);
    // Past the lease it is a crashed one.
    expect(await trash.sweep(0)).toBe(1);
    expect(await t.blobs()).toEqual(before);
    expect(await trashRows(t.server.db)).toBe(0);
  });

  it('never brings back a blob whose row is gone, and purges what a committed operation left', async () => {
    const operation = randomUUID();
    await trash.setAside(operation, member.blobs);
    await t.server.db.query('delete from storage.objects where version = $1', [member.blobs[0]]);
    await trash.sweep(0);
    expect(await blobs.exists(member.blobs[0] as string)).toBe(false);
    expect(await blobs.exists(member.blobs[1] as string)).toBe(true);
    expect(await trashRows(t.server.db)).toBe(0);

    const committed = randomUUID();
    const [entry] = await trash.setAside(committed, [member.blobs[1] as string]);
    await t.server.db.query(`update storage.blob_trash set state = 'purge' where operation_id = $1`, [
      committed,
    ]);
    await t.server.db.query('delete from storage.objects where version = $1', [member.blobs[1]]);
    expect(await blobs.exists(entry?.aside_key as string)).toBe(true);
    await trash.sweep(3600);
    expect(await blobs.exists(entry?.aside_key as string)).toBe(false);
    expect(await blobs.exists(member.blobs[1] as string)).toBe(false);
    expect(await trashRows(t.server.db)).toBe(0);
  });
});
