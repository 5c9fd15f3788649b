// @databases: both — storage policies (RLS on storage.objects).
/**
 * The row-level-security matrix of storage.objects, through supabase-js only, on both backends: every
 * caller (anon, the folder's owner, another user, an admin, the service key) × every operation
 * (download, list, insert, update, delete) × the product's buckets and a private bucket without
 * policies. Data first, one runner (as tests/integration/rls-matrix.data.ts does for the tables).
 *
 * Outcomes:
 * - allowed: the operation succeeds and reaches the target;
 * - denied:  refused with 403 "new row violates row-level security policy";
 * - hidden:  the target is invisible: download answers 404, list leaves it out, delete removes
 *            nothing (and says so by answering an empty list) — the object is still there after.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { BACKENDS, blob, GIF, PNG } from '#tests/support/storage.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';
import { type StorageTestServer, startStorageServer } from './storage-support.ts';

type Actor = 'anon' | 'owner' | 'other' | 'admin' | 'service_role';
type Operation = 'download' | 'list' | 'insert' | 'update' | 'delete';
type Outcome = 'allowed' | 'denied' | 'hidden';

const ACTORS: Actor[] = ['anon', 'owner', 'other', 'admin', 'service_role'];
const OPERATIONS: Operation[] = ['download', 'list', 'insert', 'update', 'delete'];

interface Target {
  bucket: string;
  /** Folder of the objects acted on; `{owner}` is the owning user's id. */
  folder: string;
}

interface MatrixRow {
  name: string;
  target: Target;
  expect: Record<Operation, Record<Actor, Outcome>>;
}

const row = (anon: Outcome, owner: Outcome, other: Outcome, admin: Outcome, service_role: Outcome) => ({
  anon,
  owner,
  other,
  admin,
  service_role,
});

const MATRIX: MatrixRow[] = [
  {
    name: "user-uploads, the owner's folder",
    target: { bucket: 'user-uploads', folder: '{owner}' },
    expect: {
      //                 anon       owner      other      admin      service
      download: row('allowed', 'allowed', 'allowed', 'allowed', 'allowed'),
      list: row('hidden', 'allowed', 'hidden', 'allowed', 'allowed'),
      insert: row('denied', 'allowed', 'denied', 'denied', 'allowed'),
      update: row('denied', 'allowed', 'denied', 'denied', 'allowed'),
      delete: row('hidden', 'allowed', 'hidden', 'allowed', 'allowed'),
    },
  },
  {
    name: 'user-uploads, outside any user folder',
    target: { bucket: 'user-uploads', folder: 'shared' },
    expect: {
      download: row('allowed', 'allowed', 'allowed', 'allowed', 'allowed'),
      list: row('hidden', 'hidden', 'hidden', 'allowed', 'allowed'),
      insert: row('denied', 'denied', 'denied', 'denied', 'allowed'),
      update: row('denied', 'denied', 'denied', 'denied', 'allowed'),
      delete: row('hidden', 'hidden', 'hidden', 'allowed', 'allowed'),
    },
  },
  {
    name: 'community-review-media, admin-posts/',
    target: { bucket: 'community-review-media', folder: 'admin-posts' },
    expect: {
      download: row('allowed', 'allowed', 'allowed', 'allowed', 'allowed'),
      list: row('allowed', 'allowed', 'allowed', 'allowed', 'allowed'),
      insert: row('denied', 'denied', 'denied', 'allowed', 'allowed'),
      update: row('denied', 'denied', 'denied', 'allowed', 'allowed'),
      delete: row('hidden', 'hidden', 'hidden', 'allowed', 'allowed'),
    },
  },
  {
    name: 'community-review-media, outside admin-posts/',
    target: { bucket: 'community-review-media', folder: 'elsewhere' },
    expect: {
      download: row('allowed', 'allowed', 'allowed', 'allowed', 'allowed'),
      list: row('allowed', 'allowed', 'allowed', 'allowed', 'allowed'),
      insert: row('denied', 'denied', 'denied', 'denied', 'allowed'),
      update: row('denied', 'denied', 'denied', 'denied', 'allowed'),
      delete: row('hidden', 'hidden', 'hidden', 'hidden', 'allowed'),
    },
  },
  {
    name: 'a private bucket without policies',
    target: { bucket: 'vault', folder: '{owner}' },
    expect: {
      download: row('hidden', 'hidden', 'hidden', 'hidden', 'allowed'),
      list: row('hidden', 'hidden', 'hidden', 'hidden', 'allowed'),
      insert: row('denied', 'denied', 'denied', 'denied', 'allowed'),
      update: row('denied', 'denied', 'denied', 'denied', 'allowed'),
      delete: row('hidden', 'hidden', 'hidden', 'hidden', 'allowed'),
    },
  },
];

describe.each(BACKENDS)('storage.objects RLS matrix on the %s backend', (backend) => {
  let t: StorageTestServer;
  let service: SupabaseClient;
  const clients = {} as Record<Actor, SupabaseClient>;
  let owner: SignedInUser;

  beforeAll(async () => {
    t = await startStorageServer(backend);
    service = adminClient(t.server);
    owner = await signedInUser(t.server);
    const other = await signedInUser(t.server);
    const admin = await signedInUser(t.server, { admin: true });
    clients.anon = anonClient(t.server);
    clients.owner = owner.client;
    clients.other = other.client;
    clients.admin = admin.client;
    clients.service_role = service;
    const vault = await service.storage.createBucket('vault', { public: false });
    expect(vault.error).toBeNull();
  });
  afterAll(() => t?.close());

  const folderOf = (target: Target) => target.folder.replace('{owner}', owner.id);

  /** The object acted on exists with known bytes; the new name does not. */
  async function arrange(target: Target, existing: string, fresh: string): Promise<void> {
    const bucket = service.storage.from(target.bucket);
    await bucket.remove([fresh]);
    const { error } = await bucket.upload(existing, blob(PNG, 'image/png'), { upsert: true });
    expect(error).toBeNull();
  }

  async function bytesOf(target: Target, path: string): Promise<Buffer | null> {
    const { data } = await service.storage.from(target.bucket).download(path);
    return data ? Buffer.from(await data.arrayBuffer()) : null;
  }

  const cases = MATRIX.flatMap((matrixRow) =>
    OPERATIONS.flatMap((operation) =>
      ACTORS.map((actor) => ({ matrixRow, operation, actor, outcome: matrixRow.expect[operation][actor] })),
    ),
  );

  it.each(cases)(
    '$matrixRow.name: $actor $operation → $outcome',
    async ({ matrixRow, operation, actor, outcome }) => {
      const { target } = matrixRow;
      const folder = folderOf(target);
      const existing = `${folder}/target.png`;
      const fresh = `${folder}/new-${actor}.gif`;
      await arrange(target, existing, fresh);
      const storage = clients[actor].storage.from(target.bucket);

      switch (operation) {
        case 'download': {
          const { data, error } = await storage.download(existing);
          if (outcome === 'allowed') {
            expect(error).toBeNull();
            expect(Buffer.from(await (data as Blob).arrayBuffer()).equals(PNG)).toBe(true);
          } else {
            expect(error).toMatchObject({ status: 404 });
          }
          break;
        }
        case 'list': {
          const { data, error } = await storage.list(folder);
          expect(error).toBeNull();
          const names = (data ?? []).map((entry) => entry.name);
          if (outcome === 'allowed') expect(names).toContain('target.png');
          else expect(names).not.toContain('target.png');
          break;
        }
        case 'insert': {
          const { error } = await storage.upload(fresh, blob(GIF, 'image/gif'));
          if (outcome === 'allowed') {
            expect(error).toBeNull();
            expect((await bytesOf(target, fresh))?.equals(GIF)).toBe(true);
          } else {
            expect(error).toMatchObject({
              status: 403,
              message: 'new row violates row-level security policy',
            });
            expect(await bytesOf(target, fresh)).toBeNull();
          }
          break;
        }
        case 'update': {
          const { error } = await storage.update(existing, blob(GIF, 'image/gif'));
          if (outcome === 'allowed') {
            expect(error).toBeNull();
            expect((await bytesOf(target, existing))?.equals(GIF)).toBe(true);
          } else {
            expect(error).toMatchObject({ status: 403 });
            expect((await bytesOf(target, existing))?.equals(PNG)).toBe(true);
          }
          break;
        }
        case 'delete': {
          const { data, error } = await storage.remove([existing]);
          expect(error).toBeNull();
          if (outcome === 'allowed') {
            expect(data?.map((entry) => entry.name)).toEqual([existing]);
            expect(await bytesOf(target, existing)).toBeNull();
          } else {
            expect(data).toEqual([]);
            expect((await bytesOf(target, existing))?.equals(PNG)).toBe(true);
          }
          break;
        }
      }
    },
  );

  it('covers every actor and operation in every row', () => {
    for (const matrixRow of MATRIX) {
      expect(Object.keys(matrixRow.expect).sort()).toEqual([...OPERATIONS].sort());
      for (const operation of OPERATIONS) {
        expect(Object.keys(matrixRow.expect[operation]).sort()).toEqual([...ACTORS].sort());
      }
    }
  });

  it('lets nobody move an object out of their reach or into another folder', async () => {
    const other = clients.other.storage.from('user-uploads');
    const mine = `${owner.id}/keep.png`;
    await service.storage.from('user-uploads').upload(mine, blob(PNG, 'image/png'), { upsert: true });
    // Another user cannot move (or copy) the owner's object into their own folder.
    expect((await other.move(mine, 'stolen/keep.png')).error).toMatchObject({ status: 404 });
    expect((await other.copy(mine, 'stolen/keep.png')).error).toMatchObject({ status: 404 });
    // The owner cannot move their object out of their folder.
    const own = clients.owner.storage.from('user-uploads');
    expect((await own.move(mine, 'shared/keep.png')).error).toMatchObject({ status: 403 });
    expect((await own.move(mine, `${owner.id}/renamed.png`)).error).toBeNull();
  });

  it('signs URLs only for objects the caller may read', async () => {
    const private_ = `${owner.id}/secret.png`;
    await service.storage.from('vault').upload(private_, blob(PNG, 'image/png'), { upsert: true });
    expect((await clients.owner.storage.from('vault').createSignedUrl(private_, 60)).error).toMatchObject({
      status: 404,
    });
    const { data } = await service.storage.from('vault').createSignedUrl(private_, 60);
    const response = await fetch(data?.signedUrl as string);
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
    const listed = await clients.other.storage
      .from('user-uploads')
      .createSignedUrls([`${owner.id}/renamed.png`], 60);
    expect(listed.data?.[0]?.error).toBe('Either the object does not exist or you do not have access to it');
  });
});
