// @databases: both — issue 37 asks its compatibility items of both databases (keys, tokens and objects live in the database).
/**
 * Objects through supabase-js (storage-js) only, on both backends: uploads in every body form
 * storage-js sends, upsert and update, info, exists, download, list, move, copy, signed URLs,
 * signed upload URLs, remove — with Supabase's answers and error shapes.
 */
import { Readable } from 'node:stream';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { BACKENDS, blob, GIF, PNG } from '#tests/support/storage.ts';
import { signToken } from '#tests/support/tokens.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';
import { type StorageTestServer, startStorageServer } from './storage-support.ts';

describe.each(BACKENDS)('storage objects on the %s backend', (backend) => {
  let t: StorageTestServer;
  let admin: SupabaseClient;
  let alice: SignedInUser;

  beforeAll(async () => {
    t = await startStorageServer(backend);
    admin = adminClient(t.server);
    alice = await signedInUser(t.server);
    const { error } = await admin.storage.createBucket('docs', { public: false, fileSizeLimit: '1mb' });
    expect(error).toBeNull();
  });
  afterAll(() => t?.close());

  const docs = () => admin.storage.from('docs');
  const text = async (data: Blob | null) => (data ? await data.text() : null);

  describe('upload', () => {
    it('stores a Blob sent as multipart/form-data and gives the same bytes back', async () => {
      const { data, error } = await docs().upload('upload/blob.png', blob(PNG, 'image/png'), {
        cacheControl: '120',
        metadata: { source: 'test', tags: ['a', 'b'] },
      });
      expect(error).toBeNull();
      expect(data).toMatchObject({ path: 'upload/blob.png', fullPath: 'docs/upload/blob.png' });
      expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);
      const download = await docs().download('upload/blob.png');
      expect(Buffer.from(await (download.data as Blob).arrayBuffer()).equals(PNG)).toBe(true);
      const info = await docs().info('upload/blob.png');
      expect(info.error).toBeNull();
      expect(info.data).toMatchObject({
        id: data?.id,
        name: 'upload/blob.png',
        bucketId: 'docs',
        size: PNG.length,
        contentType: 'image/png',
        cacheControl: 'max-age=120',
        metadata: { source: 'test', tags: ['a', 'b'] },
      });
      expect(info.data?.etag).toMatch(/^"[0-9a-f]{32}"$/);
    });

    it('stores a string sent as the raw body with its content type, cache control and metadata', async () => {
      const { error } = await docs().upload('upload/note.txt', 'hello, storage', {
        contentType: 'text/plain; charset=utf-8',
        cacheControl: '60',
        metadata: { note: true },
      });
      expect(error).toBeNull();
      expect(await text((await docs().download('upload/note.txt')).data)).toBe('hello, storage');
      const { data } = await docs().info('upload/note.txt');
      expect(data).toMatchObject({
        contentType: 'text/plain; charset=utf-8',
        cacheControl: 'max-age=60',
        size: 14,
        metadata: { note: true },
      });
    });

    it('stores a Node stream and a Buffer', async () => {
      const chunks = ['stream', 'ed ', 'bytes'];
      const streamed = await docs().upload('upload/streamed.txt', Readable.from(chunks), {
        contentType: 'text/plain',
      });
      expect(streamed.error).toBeNull();
      expect(await text((await docs().download('upload/streamed.txt')).data)).toBe('streamed bytes');
      const buffered = await docs().upload('upload/buffer.gif', GIF, { contentType: 'image/gif' });
      expect(buffered.error).toBeNull();
      const download = await docs().download('upload/buffer.gif');
      expect(Buffer.from(await (download.data as Blob).arrayBuffer()).equals(GIF)).toBe(true);
    });

    it('refuses an existing name with 409 unless upsert, and replaces it (and its blob) with upsert', async () => {
      await docs().upload('upload/twice.txt', 'first', { contentType: 'text/plain' });
      const before = await t.blobs();
      const again = await docs().upload('upload/twice.txt', 'second', { contentType: 'text/plain' });
      expect(again.error).toMatchObject({
        status: 409,
        statusCode: '409',
        message: 'The resource already exists',
      });
      const upsert = await docs().upload('upload/twice.txt', 'second', {
        contentType: 'text/plain',
        upsert: true,
      });
      expect(upsert.error).toBeNull();
      expect(await text((await docs().download('upload/twice.txt')).data)).toBe('second');
      const updated = await docs().update('upload/twice.txt', 'third', { contentType: 'text/plain' });
      expect(updated.error).toBeNull();
      expect(updated.data?.id).toBe(upsert.data?.id);
      expect(await text((await docs().download('upload/twice.txt')).data)).toBe('third');
      // One blob per object: each replacement removed the previous one.
      expect((await t.blobs()).length).toBe(before.length);
    });

    it('answers "Bucket not found" for a bucket that does not exist', async () => {
      const { error } = await admin.storage.from('no-such-bucket').upload('a.txt', 'x');
      expect(error).toMatchObject({ status: 404, statusCode: '404', message: 'Bucket not found' });
    });

    it('enforces the bucket size limit with 413', async () => {
      const { error } = await docs().upload('upload/big.bin', Buffer.alloc(1_000_001), {
        contentType: 'application/octet-stream',
      });
      expect(error).toMatchObject({
        status: 413,
        statusCode: '413',
        message: 'The object exceeded the maximum allowed size',
      });
      expect((await docs().exists('upload/big.bin')).data).toBe(false);
    });
  });

  describe('exists, info and list', () => {
    beforeAll(async () => {
      for (const name of [
        'list/b.txt',
        'list/a.txt',
        'list/sub/c.txt',
        'list/sub/deeper/d.txt',
        'list/Zed.txt',
      ]) {
        const { error } = await docs().upload(name, name, { contentType: 'text/plain' });
        expect(error).toBeNull();
      }
    });

    it('tells whether an object exists', async () => {
      expect(await docs().exists('list/a.txt')).toEqual({ data: true, error: null });
      expect((await docs().exists('list/none.txt')).data).toBe(false);
    });

    it('answers "Object not found" for info and download of a missing object', async () => {
      expect((await docs().info('list/none.txt')).error).toMatchObject({
        status: 404,
        message: 'Object not found',
      });
      expect((await docs().download('list/none.txt')).error).toMatchObject({ status: 404 });
    });

    it('lists one level: folders first, then files, sorted by name', async () => {
      const { data, error } = await docs().list('list');
      expect(error).toBeNull();
      expect(data?.map((entry) => entry.name)).toEqual(['sub', 'Zed.txt', 'a.txt', 'b.txt']);
      const folder = data?.[0];
      expect(folder).toMatchObject({ name: 'sub', id: null, metadata: null, updated_at: null });
      const file = data?.[2];
      expect(file?.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(file?.metadata).toMatchObject({ size: 10, mimetype: 'text/plain' });
      expect(file?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it('applies limit, offset, sortBy and search', async () => {
      const page = await docs().list('list', { limit: 2, offset: 1 });
      expect(page.data?.map((entry) => entry.name)).toEqual(['Zed.txt', 'a.txt']);
      const desc = await docs().list('list', { sortBy: { column: 'name', order: 'desc' } });
      expect(desc.data?.map((entry) => entry.name)).toEqual(['sub', 'b.txt', 'a.txt', 'Zed.txt']);
      const search = await docs().list('list', { search: 'z' });
      expect(search.data?.map((entry) => entry.name)).toEqual(['Zed.txt']);
      const nested = await docs().list('list/sub/');
      expect(nested.data?.map((entry) => entry.name)).toEqual(['deeper', 'c.txt']);
      const root = await docs().list();
      expect(root.data?.map((entry) => entry.name)).toEqual(expect.arrayContaining(['list', 'upload']));
    });

    it('treats % and _ in a search as plain characters', async () => {
      expect((await docs().list('list', { search: '_' })).data).toEqual([]);
      expect((await docs().list('list', { search: '%' })).data).toEqual([]);
    });
  });

  describe('move and copy', () => {
    it('moves an object without copying its bytes', async () => {
      await docs().upload('move/from.txt', 'moving', { contentType: 'text/plain' });
      const before = await t.blobs();
      expect(await docs().move('move/from.txt', 'move/to.txt')).toEqual({
        data: { message: 'Successfully moved' },
        error: null,
      });
      expect((await docs().exists('move/from.txt')).data).toBe(false);
      expect(await text((await docs().download('move/to.txt')).data)).toBe('moving');
      expect(await t.blobs()).toEqual(before);
    });

    it('refuses to move onto an existing name (409) or from a missing one (404)', async () => {
      await docs().upload('move/x.txt', 'x', { contentType: 'text/plain' });
      await docs().upload('move/y.txt', 'y', { contentType: 'text/plain' });
      expect((await docs().move('move/x.txt', 'move/y.txt')).error).toMatchObject({ status: 409 });
      expect((await docs().move('move/none.txt', 'move/z.txt')).error).toMatchObject({
        status: 404,
        message: 'Object not found',
      });
    });

    it('copies an object into a new blob', async () => {
      await docs().upload('copy/source.txt', 'copied', { contentType: 'text/plain', metadata: { k: 1 } });
      const before = await t.blobs();
      const { data, error } = await docs().copy('copy/source.txt', 'copy/target.txt');
      expect(error).toBeNull();
      expect(data).toEqual({ path: 'docs/copy/target.txt' });
      expect(await text((await docs().download('copy/target.txt')).data)).toBe('copied');
      expect((await docs().info('copy/target.txt')).data?.metadata).toEqual({ k: 1 });
      expect((await t.blobs()).length).toBe(before.length + 1);
      // The copy is independent: deleting the source leaves it.
      await docs().remove(['copy/source.txt']);
      expect(await text((await docs().download('copy/target.txt')).data)).toBe('copied');
    });

    it('refuses to copy into a bucket whose types do not admit the object', async () => {
      await docs().upload('copy/page.txt', 'text', { contentType: 'text/plain' });
      const { error } = await docs().copy('copy/page.txt', 'someone/page.png', {
        destinationBucket: 'user-uploads',
      });
      expect(error).toMatchObject({ status: 415 });
    });
  });

  describe('signed URLs', () => {
    beforeAll(async () => {
      await docs().upload('signed/file.txt', 'signed content', { contentType: 'text/plain' });
    });

    it('downloads without credentials until the token expires', async () => {
      const { data, error } = await docs().createSignedUrl('signed/file.txt', 60);
      expect(error).toBeNull();
      const response = await fetch(data?.signedUrl as string);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('signed content');
      expect(response.headers.get('expires')).toBeTruthy();
      const withName = await docs().createSignedUrl('signed/file.txt', 60, { download: 'report.txt' });
      const attachment = await fetch(withName.data?.signedUrl as string);
      expect(attachment.headers.get('content-disposition')).toBe(
        `attachment; filename="report.txt"; filename*=UTF-8''report.txt`,
      );
    });

    it('refuses a token that expired, was altered or names another object', async () => {
      const token = await signToken(t.server.jwtSecret, { url: 'docs/signed/file.txt' }, { expiresIn: -10 });
      const expired = await fetch(`${t.url}/storage/v1/object/sign/docs/signed/file.txt?token=${token}`);
      expect(expired.status).toBe(400);
      expect(await expired.json()).toEqual({
        statusCode: '400',
        error: 'InvalidJWT',
        message: 'jwt expired',
      });

      const { data } = await docs().createSignedUrl('signed/file.txt', 60);
      const url = new URL(data?.signedUrl as string);
      const good = url.searchParams.get('token') as string;
      const altered = `${good.slice(0, -3)}${good.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`;
      const forged = await fetch(`${t.url}/storage/v1/object/sign/docs/signed/file.txt?token=${altered}`);
      expect(forged.status).toBe(400);
      const elsewhere = await fetch(`${t.url}/storage/v1/object/sign/docs/upload/note.txt?token=${good}`);
      expect(await elsewhere.json()).toMatchObject({ statusCode: '400', error: 'InvalidSignature' });
      const missing = await fetch(`${t.url}/storage/v1/object/sign/docs/signed/file.txt`);
      expect(missing.status).toBe(400);
    });

    it('signs several paths at once, with an error for the ones that do not exist', async () => {
      const { data, error } = await docs().createSignedUrls(['signed/file.txt', 'signed/none.txt'], 60);
      expect(error).toBeNull();
      expect(data?.[0]).toMatchObject({ path: 'signed/file.txt', error: null });
      expect(data?.[1]).toMatchObject({
        path: 'signed/none.txt',
        error: 'Either the object does not exist or you do not have access to it',
        signedUrl: null,
      });
      expect(await (await fetch(data?.[0]?.signedUrl as string)).text()).toBe('signed content');
    });

    it('refuses to sign a missing object or a nonsensical lifetime', async () => {
      expect((await docs().createSignedUrl('signed/none.txt', 60)).error).toMatchObject({ status: 404 });
      expect((await docs().createSignedUrl('signed/file.txt', 0)).error).toMatchObject({ status: 400 });
    });
  });

  describe('signed upload URLs', () => {
    it('let anyone holding the URL upload that one object, once', async () => {
      const { data, error } = await docs().createSignedUploadUrl('signed-upload/one.txt');
      expect(error).toBeNull();
      expect(data?.path).toBe('signed-upload/one.txt');
      const stranger = anonClient(t.server).storage.from('docs');
      const first = await stranger.uploadToSignedUrl(
        'signed-upload/one.txt',
        data?.token as string,
        'via url',
        {
          contentType: 'text/plain',
        },
      );
      expect(first.error).toBeNull();
      expect(first.data).toMatchObject({
        path: 'signed-upload/one.txt',
        fullPath: 'docs/signed-upload/one.txt',
      });
      expect(await text((await docs().download('signed-upload/one.txt')).data)).toBe('via url');
      const second = await stranger.uploadToSignedUrl(
        'signed-upload/one.txt',
        data?.token as string,
        'again',
        {
          contentType: 'text/plain',
          upsert: true,
        },
      );
      expect(second.error).toMatchObject({ status: 409 });
      expect(await text((await docs().download('signed-upload/one.txt')).data)).toBe('via url');
    });

    it('refuse another path, and a download token', async () => {
      const { data } = await docs().createSignedUploadUrl('signed-upload/two.txt');
      const other = await anonClient(t.server)
        .storage.from('docs')
        .uploadToSignedUrl('signed-upload/three.txt', data?.token as string, 'x', {
          contentType: 'text/plain',
        });
      expect(other.error).toMatchObject({ status: 400, statusCode: '400' });
      const download = await docs().createSignedUrl('upload/note.txt', 60);
      const downloadToken = new URL(download.data?.signedUrl as string).searchParams.get('token') as string;
      const misuse = await anonClient(t.server)
        .storage.from('docs')
        .uploadToSignedUrl('upload/note.txt', downloadToken, 'x', { contentType: 'text/plain' });
      expect(misuse.error).toMatchObject({ status: 400 });
    });

    it('are refused up front when the name exists (without upsert)', async () => {
      expect((await docs().createSignedUploadUrl('upload/note.txt')).error).toMatchObject({ status: 409 });
      expect((await docs().createSignedUploadUrl('upload/note.txt', { upsert: true })).error).toBeNull();
    });
  });

  describe('remove', () => {
    it('deletes the named objects, answers them, and removes their blobs', async () => {
      await docs().upload('remove/a.txt', 'a', { contentType: 'text/plain' });
      await docs().upload('remove/b.txt', 'b', { contentType: 'text/plain' });
      const before = await t.blobs();
      const { data, error } = await docs().remove(['remove/a.txt', 'remove/b.txt', 'remove/none.txt']);
      expect(error).toBeNull();
      expect(data?.map((entry) => entry.name).sort()).toEqual(['remove/a.txt', 'remove/b.txt']);
      expect(data?.[0]).toMatchObject({ bucket_id: 'docs' });
      expect((await t.blobs()).length).toBe(before.length - 2);
      expect((await docs().list('remove')).data).toEqual([]);
    });
  });

  describe('downloads over HTTP', () => {
    const body = Buffer.from('0123456789abcdefghij');
    let url: string;
    let headers: Record<string, string>;

    beforeAll(async () => {
      await docs().upload('http/data.bin', body, {
        contentType: 'application/octet-stream',
        cacheControl: '300',
      });
      await docs().upload('http/page.html', '<script>alert(1)</script>', { contentType: 'text/html' });
      url = `${t.url}/storage/v1/object/authenticated/docs/http/data.bin`;
      headers = { apikey: t.server.serviceRoleKey, authorization: `Bearer ${t.server.serviceRoleKey}` };
    });

    it('send type, length, ETag, Last-Modified, Cache-Control and the safety headers', async () => {
      const response = await fetch(url, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
      expect(response.headers.get('content-length')).toBe('20');
      expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
      expect(Date.parse(response.headers.get('last-modified') as string)).toBeGreaterThan(0);
      expect(response.headers.get('cache-control')).toBe('max-age=300');
      expect(response.headers.get('accept-ranges')).toBe('bytes');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(response.headers.get('content-security-policy')).toContain('sandbox');
      expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
    });

    it('answer conditional requests with 304', async () => {
      const first = await fetch(url, { headers });
      const etag = first.headers.get('etag') as string;
      const lastModified = first.headers.get('last-modified') as string;
      await first.arrayBuffer();
      const byTag = await fetch(url, { headers: { ...headers, 'if-none-match': etag } });
      expect(byTag.status).toBe(304);
      expect(byTag.headers.get('etag')).toBe(etag);
      const byDate = await fetch(url, { headers: { ...headers, 'if-modified-since': lastModified } });
      expect(byDate.status).toBe(304);
      const changed = await fetch(url, { headers: { ...headers, 'if-none-match': '"other"' } });
      expect(changed.status).toBe(200);
      await changed.arrayBuffer();
    });

    it('serve byte ranges with 206, and 416 beyond the end', async () => {
      const cases: [string, string, string][] = [
        ['bytes=1-3', '123', 'bytes 1-3/20'],
        ['bytes=-2', 'ij', 'bytes 18-19/20'],
        ['bytes=15-', 'fghij', 'bytes 15-19/20'],
        ['bytes=10-99', 'abcdefghij', 'bytes 10-19/20'],
      ];
      for (const [range, expected, contentRange] of cases) {
        const response = await fetch(url, { headers: { ...headers, range } });
        expect(response.status, range).toBe(206);
        expect(response.headers.get('content-range')).toBe(contentRange);
        expect(response.headers.get('content-length')).toBe(String(expected.length));
        expect(await response.text()).toBe(expected);
      }
      const beyond = await fetch(url, { headers: { ...headers, range: 'bytes=20-' } });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe('bytes */20');
      await beyond.arrayBuffer();
      const several = await fetch(url, { headers: { ...headers, range: 'bytes=0-1,5-6' } });
      expect(several.status).toBe(200);
      await several.arrayBuffer();
    });

    it('answer HEAD with the headers only, and ?download= as an attachment', async () => {
      const head = await fetch(url, { method: 'HEAD', headers });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe('20');
      expect(await head.text()).toBe('');
      const named = await fetch(`${url}?download=r%C3%A9sum%C3%A9.bin`, { headers });
      expect(named.headers.get('content-disposition')).toBe(
        `attachment; filename="r_sum_.bin"; filename*=UTF-8''r%C3%A9sum%C3%A9.bin`,
      );
      await named.arrayBuffer();
      const plain = await fetch(`${url}?download`, { headers });
      expect(plain.headers.get('content-disposition')).toBe(
        `attachment; filename="data.bin"; filename*=UTF-8''data.bin`,
      );
      await plain.arrayBuffer();
    });

    it('never serve uploaded HTML as a page', async () => {
      const response = await fetch(`${t.url}/storage/v1/object/docs/http/page.html`, { headers });
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toContain('sandbox');
      expect(await response.text()).toBe('<script>alert(1)</script>');
    });

    it('keep private buckets off the public route and off anonymous callers', async () => {
      const publicRoute = await fetch(`${t.url}/storage/v1/object/public/docs/http/data.bin`);
      expect(publicRoute.status).toBe(404);
      expect(await publicRoute.json()).toEqual({
        statusCode: '404',
        error: 'Bucket not found',
        message: 'Bucket not found',
      });
      const anonymous = await anonClient(t.server).storage.from('docs').download('http/data.bin');
      expect(anonymous.error).toMatchObject({ status: 404 });
      const signedIn = await alice.client.storage.from('docs').download('http/data.bin');
      expect(signedIn.error).toMatchObject({ status: 404 });
    });
  });

  describe('credentials', () => {
    const path = '/storage/v1/object/list/docs';

    it('runs as anon without an API key (decision 108) and answers 403 for a bad or expired token', async () => {
      const none = await fetch(`${t.url}${path}`, { method: 'POST' });
      expect(none.status).toBe(400);
      expect(await none.json()).toMatchObject({ statusCode: '400' });
      const forgedKey = await fetch(`${t.url}${path}`, { method: 'POST', headers: { apikey: 'garbage' } });
      expect(forgedKey.status).toBe(401);
      const expired = await signToken(
        t.server.jwtSecret,
        { sub: alice.id, role: 'authenticated' },
        { expiresIn: -60 },
      );
      const late = await fetch(`${t.url}${path}`, {
        method: 'POST',
        headers: { apikey: t.server.anonKey, authorization: `Bearer ${expired}` },
      });
      expect(late.status).toBe(403);
      expect(await late.json()).toMatchObject({ message: 'jwt expired' });
      const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
        JSON.stringify({ role: 'service_role' }),
      ).toString('base64url')}.`;
      for (const token of [unsigned, 'not-a-jwt']) {
        const forged = await fetch(`${t.url}${path}`, {
          method: 'POST',
          headers: { apikey: t.server.anonKey, authorization: `Bearer ${token}` },
        });
        expect(forged.status).toBe(403);
      }
      const badKey = await fetch(`${t.url}${path}`, { method: 'POST', headers: { apikey: unsigned } });
      expect(badKey.status).toBe(401);
    });
  });
});
