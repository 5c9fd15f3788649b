// @databases: both — issue 37 asks its compatibility items of both databases (keys, tokens and objects live in the database).
/**
 * Storage as Supabase Storage answers storage-js (issue 23, decision 109), through the shipped and
 * the newest storage-js: uploads declared with a generic type (storage-js's text/plain default for a
 * Buffer, octet-stream, none) stored as what their bytes are, with the image and bucket rules kept;
 * cursor listing (list-v2) with folders; GET /bucket/:id and emptyBucket in upstream's shapes.
 */
import { StorageClient as ShippedStorage } from '@supabase/storage-js';
import { StorageClient as LatestStorage } from 'storage-js-latest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIF, PNG } from '#tests/support/storage.ts';
import { type StorageTestServer, startStorageServer } from './storage-support.ts';

/** The first bytes of a JPEG (SOI, JFIF APP0) and its end: what file-type recognises as image/jpeg. */
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffdb0043000808080808080808ffd9', 'hex');

let t: StorageTestServer;
beforeAll(async () => {
  t = await startStorageServer('file');
  const admin = new ShippedStorage(`${t.url}/storage/v1`, {
    apikey: t.server.serviceRoleKey,
    Authorization: `Bearer ${t.server.serviceRoleKey}`,
  });
  for (const [id, allowedMimeTypes] of [
    ['pictures', ['image/*']],
    ['anything', undefined],
  ] as const) {
    const { error } = await admin.createBucket(id, {
      public: false,
      allowedMimeTypes: allowedMimeTypes && [...allowedMimeTypes],
    });
    expect(error).toBeNull();
  }
});
afterAll(() => t?.close());

const CLIENTS = [
  { release: 'shipped', Storage: ShippedStorage },
  // The newest release's generics differ; the calls made here are the same in both.
  { release: 'newest', Storage: LatestStorage as unknown as typeof ShippedStorage },
] as const;

describe.each(CLIENTS)('through the $release storage-js', ({ release, Storage }) => {
  const admin = () =>
    new Storage(`${t.url}/storage/v1`, {
      apikey: t.server.serviceRoleKey,
      Authorization: `Bearer ${t.server.serviceRoleKey}`,
    });
  const mimeOf = async (bucket: string, name: string) => {
    const info = await admin().from(bucket).info(name);
    expect(info.error).toBeNull();
    return (info.data as { contentType?: string } | null)?.contentType;
  };

  describe('uploads with a generic declared type', () => {
    it('stores a Buffer sent with the default text/plain as what its bytes are', async () => {
      const jpeg = await admin().from('pictures').upload(`${release}/photo.jpg`, JPEG);
      expect(jpeg.error).toBeNull();
      expect(await mimeOf('pictures', `${release}/photo.jpg`)).toBe('image/jpeg');
      const png = await admin()
        .from('pictures')
        .upload(`${release}/dot.png`, PNG, { contentType: 'application/octet-stream' });
      expect(png.error).toBeNull();
      expect(await mimeOf('pictures', `${release}/dot.png`)).toBe('image/png');
      const download = await admin().from('pictures').download(`${release}/dot.png`);
      expect(download.data?.type).toBe('image/png');
      expect(Buffer.from(await (download.data as Blob).arrayBuffer())).toEqual(PNG);
    });

    it('keeps text as the declared type, which an image bucket still refuses', async () => {
      const text = await admin()
        .from('anything')
        .upload(`${release}/note.txt`, Buffer.from('<b>just words</b>'));
      expect(text.error).toBeNull();
      expect(await mimeOf('anything', `${release}/note.txt`)).toBe('text/plain;charset=UTF-8');
      const refused = await admin().from('pictures').upload(`${release}/note.png`, Buffer.from('just words'));
      expect(refused.error).toMatchObject({
        statusCode: '415',
        message: 'mime type text/plain;charset=UTF-8 is not supported',
      });
    });

    it('still refuses image polyglots and declared types that do not match', async () => {
      const polyglot = Buffer.concat([
        GIF.subarray(0, GIF.length - 1),
        Buffer.from([0x21, 0xfe, 0x10]),
        Buffer.from('<script>x</scri', 'latin1'),
        Buffer.from([0x00, 0x3b]),
      ]);
      const refused = await admin().from('anything').upload(`${release}/poly.gif`, polyglot);
      expect(refused.error).toMatchObject({ statusCode: '415' });
      const mismatch = await admin()
        .from('anything')
        .upload(`${release}/fake.png`, Buffer.from('not a picture'), { contentType: 'image/png' });
      expect(mismatch.error).toMatchObject({
        statusCode: '415',
        message: 'File content does not match declared type.',
      });
      const listed = await admin().from('anything').list(release);
      expect(listed.data?.map((entry) => entry.name)).toEqual(['note.txt']);
    });
  });

  describe('list-v2', () => {
    const bucket = 'anything';
    const root = `${release}-tree`;
    const names = [
      `${root}/a.txt`,
      `${root}/b/1.txt`,
      `${root}/b/2.txt`,
      `${root}/c/deep/3.txt`,
      `${root}/d.txt`,
    ];

    beforeAll(async () => {
      for (const name of names) {
        const { error } = await admin().from(bucket).upload(name, name, { contentType: 'text/plain' });
        expect(error).toBeNull();
      }
    });

    it('lists folders and objects one level deep, a page at a time', async () => {
      const first = await admin()
        .from(bucket)
        .listV2({ prefix: `${root}/`, with_delimiter: true, limit: 2 });
      expect(first.error).toBeNull();
      expect(first.data).toMatchObject({
        hasNext: true,
        folders: [{ name: `${root}/b/` }],
        objects: [{ name: `${root}/a.txt`, key: 'a.txt' }],
      });
      expect(first.data?.objects[0]).toMatchObject({
        id: expect.any(String),
        metadata: { size: `${root}/a.txt`.length },
      });
      const second = await admin()
        .from(bucket)
        .listV2({ prefix: `${root}/`, with_delimiter: true, limit: 2, cursor: first.data?.nextCursor });
      expect(second.error).toBeNull();
      expect(second.data).toEqual({
        hasNext: false,
        folders: [{ id: null, name: `${root}/c/` }],
        objects: [expect.objectContaining({ name: `${root}/d.txt`, key: 'd.txt' })],
      });
    });

    it('lists every object flat, in either order, and by date', async () => {
      const flat = await admin()
        .from(bucket)
        .listV2({ prefix: `${root}/` });
      expect(flat.data?.folders).toEqual([]);
      expect(flat.data?.objects.map((object) => object.name)).toEqual(names);
      const reversed = await admin()
        .from(bucket)
        .listV2({ prefix: `${root}/`, sortBy: { column: 'name', order: 'desc' }, limit: 3 });
      expect(reversed.data?.objects.map((object) => object.name)).toEqual(
        names.slice().reverse().slice(0, 3),
      );
      const rest = await admin()
        .from(bucket)
        .listV2({ prefix: `${root}/`, cursor: reversed.data?.nextCursor, limit: 3 });
      expect(rest.data?.objects.map((object) => object.name)).toEqual(names.slice().reverse().slice(3));
      let cursor: string | undefined;
      const byDate: string[] = [];
      do {
        const page = await admin()
          .from(bucket)
          .listV2({ prefix: `${root}/`, sortBy: { column: 'created_at', order: 'asc' }, limit: 2, cursor });
        expect(page.error).toBeNull();
        byDate.push(...(page.data?.objects.map((object) => object.name) ?? []));
        cursor = page.data?.nextCursor;
      } while (cursor);
      expect(byDate).toEqual(names);
    });

    it('refuses a forged cursor and an unknown bucket', async () => {
      const forged = await admin()
        .from(bucket)
        .listV2({ cursor: Buffer.from('x:y').toString('base64') });
      expect(forged.error).toMatchObject({ statusCode: '400' });
      const missing = await admin().from('no-such-bucket').listV2({});
      expect(missing.error).toBeNull();
      expect(missing.data).toEqual({ hasNext: false, folders: [], objects: [] });
    });
  });

  it('gets a bucket with exactly the fields upstream selects', async () => {
    const { data, error } = await admin().getBucket('pictures');
    expect(error).toBeNull();
    expect(Object.keys(data ?? {})).toEqual([
      'id',
      'name',
      'owner',
      'public',
      'created_at',
      'updated_at',
      'file_size_limit',
      'allowed_mime_types',
    ]);
  });

  it('empties a bucket with upstream message', async () => {
    const bucket = `${release}-empty`;
    expect((await admin().createBucket(bucket)).error).toBeNull();
    await admin().from(bucket).upload('x.txt', 'x', { contentType: 'text/plain' });
    expect(await admin().emptyBucket(bucket)).toEqual({
      data: { message: 'Empty bucket has been queued. Completion may take up to an hour.' },
      error: null,
    });
    expect((await admin().from(bucket).list()).data).toEqual([]);
  });
});
