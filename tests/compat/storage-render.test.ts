// @databases: both — who may render an image is decided by the storage policies (RLS on storage.objects).
/**
 * Image transformations (issue 37, decision 228) through the oldest supabase-js supported (2.109) and
 * the app's own (the newest): getPublicUrl / download / createSignedUrl with `transform` reach
 * /storage/v1/render/image/{public,authenticated,sign}; sizes, resize modes, formats and Accept-based
 * WebP as upstream; output without metadata; renditions kept and found again, replaced with the object
 * and removed with it — also when the member erases their account. Also decision 229: a signed upload
 * URL used twice answers upstream's Duplicate error.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient as createApp, type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { createClient as createOldest } from 'supabase-js-oldest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { adminClient } from '#tests/support/clients.ts';
import { blob } from '#tests/support/storage.ts';
import { createUser, PASSWORD } from '#tests/support/users.ts';
import { type StorageTestServer, startStorageServer } from './storage-support.ts';

const CLIENTS = [
  ['supabase-js 2.109 (the oldest supported)', createOldest as unknown as typeof createApp],
  ['supabase-js of the app (the newest)', createApp],
] as const;

/** A JPEG of the given size carrying EXIF (camera, GPS-like comment) that renditions must drop. */
function jpeg(width: number, height: number, color: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .withExif({ IFD0: { Make: 'SecretCam', ImageDescription: 'home at 52.52N 13.40E' } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

let t: StorageTestServer;
let wide: Buffer;
let square: Buffer;

beforeAll(async () => {
  t = await startStorageServer('file');
  wide = await jpeg(1200, 600, { r: 200, g: 30, b: 30 });
  square = await jpeg(800, 800, { r: 30, g: 30, b: 200 });
  const admin = adminClient(t.server);
  for (const [id, isPublic] of [
    ['render-public', true],
    ['render-private', false],
  ] as const) {
    const { error } = await admin.storage.createBucket(id, { public: isPublic });
    expect(error).toBeNull();
  }
});
afterAll(() => t?.close());

async function dimensions(bytes: ArrayBuffer | Buffer) {
  const meta = await sharp(Buffer.from(bytes as ArrayBuffer)).metadata();
  return { width: meta.width, height: meta.height, format: meta.format, exif: meta.exif };
}

describe.each(CLIENTS)('image transformations through %s', (label, create) => {
  const tag = label.includes('2.109') ? 'oldest' : 'newest';
  const clientOf = (key: string, token?: string): SupabaseClient =>
    create(t.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      ...(token ? { accessToken: async () => token } : {}),
      realtime: { transport: WebSocket as never },
    }) as SupabaseClient;
  const admin = () => clientOf(t.server.serviceRoleKey);
  const member = async () => {
    const user = await createUser(t.server);
    const client = clientOf(t.server.anonKey);
    const { data, error } = await client.auth.signInWithPassword({ email: user.email, password: PASSWORD });
    expect(error).toBeNull();
    const token = data.session?.access_token as string;
    return { ...user, token, client: clientOf(t.server.anonKey, token) };
  };

  it('getPublicUrl with transform: sizes, resize modes, Accept-based WebP, no metadata, cached', async () => {
    const path = `${tag}/wide.jpg`;
    expect(
      (await admin().storage.from('render-public').upload(path, blob(wide, 'image/jpeg'))).error,
    ).toBeNull();
    const bucket = admin().storage.from('render-public');
    const url = bucket.getPublicUrl(path, { transform: { width: 400, height: 400 } }).data.publicUrl;
    expect(url).toContain('/storage/v1/render/image/public/render-public/');

    const webp = await fetch(url, { headers: { accept: 'image/avif,image/webp,*/*' } });
    expect(webp.status).toBe(200);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(webp.headers.get('vary')).toBe('Accept');
    const first = await webp.arrayBuffer();
    expect(await dimensions(first)).toMatchObject({
      width: 400,
      height: 400,
      format: 'webp',
      exif: undefined,
    });

    const again = await fetch(url, { headers: { accept: 'image/webp' } });
    expect(Buffer.from(await again.arrayBuffer())).toEqual(Buffer.from(first));
    const etag = again.headers.get('etag') as string;
    const cached = await fetch(url, { headers: { accept: 'image/webp', 'if-none-match': etag } });
    expect(cached.status).toBe(304);

    const plain = await fetch(url, { headers: { accept: '*/*' } });
    expect(plain.headers.get('content-type')).toBe('image/jpeg');
    expect(await dimensions(await plain.arrayBuffer())).toMatchObject({
      width: 400,
      height: 400,
      exif: undefined,
    });

    const contain = bucket.getPublicUrl(path, { transform: { width: 400, height: 400, resize: 'contain' } });
    expect(await dimensions(await (await fetch(contain.data.publicUrl)).arrayBuffer())).toMatchObject({
      width: 400,
      height: 200,
    });
    const fill = bucket.getPublicUrl(path, {
      transform: { width: 300, height: 500, resize: 'fill', format: 'origin' },
    });
    const filled = await fetch(fill.data.publicUrl, { headers: { accept: 'image/webp' } });
    expect(filled.headers.get('content-type')).toBe('image/jpeg');
    expect(await dimensions(await filled.arrayBuffer())).toMatchObject({ width: 300, height: 500 });
    const widthOnly = bucket.getPublicUrl(path, { transform: { width: 600, quality: 50 } });
    expect(await dimensions(await (await fetch(widthOnly.data.publicUrl)).arrayBuffer())).toMatchObject({
      width: 600,
      height: 300,
    });
    // Upstream clamps sizes to 2,000 and never enlarges.
    const huge = `${t.url}/storage/v1/render/image/public/render-public/${path}?width=99999`;
    expect(await dimensions(await (await fetch(huge)).arrayBuffer())).toMatchObject({
      width: 1200,
      height: 600,
    });
    const avif = bucket.getPublicUrl(path, {
      transform: { width: 100, height: 100, format: 'avif' as never },
    });
    const avifAnswer = await fetch(avif.data.publicUrl);
    expect(avifAnswer.headers.get('content-type')).toBe('image/avif');
    expect(await dimensions(await avifAnswer.arrayBuffer())).toMatchObject({ width: 100, height: 100 });
  });

  it('download with transform runs as the caller: the policies decide, as for the object', async () => {
    const owner = await member();
    const other = await member();
    const path = `${owner.id}/avatar.jpg`;
    const upload = await owner.client.storage.from('user-uploads').upload(path, blob(square, 'image/jpeg'));
    expect(upload.error).toBeNull();
    const { error } = await admin().storage.updateBucket('user-uploads', {
      public: false,
      allowedMimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
      fileSizeLimit: 5242880,
    });
    expect(error).toBeNull();
    try {
      const mine = await owner.client.storage
        .from('user-uploads')
        .download(path, { transform: { width: 64, height: 64 } });
      expect(mine.error).toBeNull();
      expect(await dimensions(await (mine.data as Blob).arrayBuffer())).toMatchObject({
        width: 64,
        height: 64,
      });
      const theirs = await other.client.storage
        .from('user-uploads')
        .download(path, { transform: { width: 64, height: 64 } });
      expect(theirs.data).toBeNull();
      expect(theirs.error).not.toBeNull();
      const direct = await fetch(
        `${t.url}/storage/v1/render/image/authenticated/user-uploads/${path}?width=64`,
        {
          headers: { apikey: t.server.anonKey, authorization: `Bearer ${other.token}` },
        },
      );
      expect(direct.status).toBe(404);
      expect(await direct.json()).toMatchObject({ message: 'Object not found' });
      const anon = await fetch(`${t.url}/storage/v1/render/image/public/user-uploads/${path}?width=64`);
      expect(anon.status).toBe(404);
      expect(await anon.json()).toMatchObject({ message: 'Bucket not found' });
    } finally {
      await admin().storage.updateBucket('user-uploads', {
        public: true,
        allowedMimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
        fileSizeLimit: 5242880,
      });
    }
  });

  it('createSignedUrl with transform signs the transformation into a render URL', async () => {
    const path = `${tag}/signed.jpg`;
    const bucket = admin().storage.from('render-private');
    expect((await bucket.upload(path, blob(wide, 'image/jpeg'))).error).toBeNull();
    const { data, error } = await bucket.createSignedUrl(path, 60, {
      transform: { width: 120, height: 80, format: 'webp' as never },
    });
    expect(error).toBeNull();
    const signedUrl = data?.signedUrl as string;
    expect(signedUrl).toContain('/storage/v1/render/image/sign/render-private/');
    const answer = await fetch(signedUrl);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/webp');
    expect(answer.headers.get('expires')).not.toBeNull();
    expect(await dimensions(await answer.arrayBuffer())).toMatchObject({ width: 120, height: 80 });
    // The holder cannot change what was signed.
    const tampered = await fetch(`${signedUrl}&width=2000`);
    expect(await dimensions(await tampered.arrayBuffer())).toMatchObject({ width: 120, height: 80 });
    const plain = await bucket.createSignedUrl(path, 60);
    expect(plain.data?.signedUrl).toContain('/storage/v1/object/sign/render-private/');
    const forged = signedUrl.replace('/signed.jpg', '/other.jpg');
    expect((await fetch(forged)).status).toBe(400);
  });

  it('refuses what is not an image, clearly', async () => {
    const path = `${tag}/notes.txt`;
    const bucket = admin().storage.from('render-private');
    expect((await bucket.upload(path, blob(Buffer.from('just words'), 'text/plain'))).error).toBeNull();
    const { data, error } = await bucket.download(path, { transform: { width: 10 } });
    expect(data).toBeNull();
    expect(error).not.toBeNull();
    const answer = await fetch(
      `${t.url}/storage/v1/render/image/authenticated/render-private/${path}?width=10`,
      {
        headers: { apikey: t.server.serviceRoleKey, authorization: `Bearer ${t.server.serviceRoleKey}` },
      },
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      statusCode: '400',
      message: 'The source image is invalid or unsupported for rendering',
    });
  });

  it('a replaced object renders anew; a deleted one takes its renditions with it', async () => {
    const path = `${tag}/replaced.jpg`;
    const bucket = admin().storage.from('render-public');
    expect((await bucket.upload(path, blob(wide, 'image/jpeg'))).error).toBeNull();
    const url = bucket.getPublicUrl(path, { transform: { width: 300, height: 300, resize: 'contain' } }).data
      .publicUrl;
    expect(await dimensions(await (await fetch(url)).arrayBuffer())).toMatchObject({
      width: 300,
      height: 150,
    });
    const kept = await renditionFiles();
    expect(kept.length).toBeGreaterThan(0);
    expect((await bucket.upload(path, blob(square, 'image/jpeg'), { upsert: true })).error).toBeNull();
    expect(await dimensions(await (await fetch(url)).arrayBuffer())).toMatchObject({
      width: 300,
      height: 300,
    });
    expect((await bucket.remove([path])).error).toBeNull();
    expect((await fetch(url)).status).toBe(404);
    const left = await renditionFiles();
    expect(left.filter((file) => !kept.includes(file)).length).toBe(0);
  });

  it("an erased member's avatar renditions go with the account", async () => {
    const alice = await member();
    const path = `${alice.id}/avatar.jpg`;
    expect(
      (await alice.client.storage.from('user-uploads').upload(path, blob(square, 'image/jpeg'))).error,
    ).toBeNull();
    const before = await renditionFiles();
    const url = alice.client.storage
      .from('user-uploads')
      .getPublicUrl(path, { transform: { width: 48, height: 48 } }).data.publicUrl;
    expect((await fetch(url)).status).toBe(200);
    const made = (await renditionFiles()).filter((file) => !before.includes(file));
    expect(made.length).toBe(1);
    const { error } = await alice.client.functions.invoke('gdpr-data-deletion', {
      method: 'DELETE',
      body: { confirm_deletion: true, user_id: alice.id },
    });
    expect(error).toBeNull();
    expect((await fetch(url)).status).toBe(404);
    const after = await renditionFiles();
    expect(after.filter((file) => made.includes(file))).toEqual([]);
  });

  it('a signed upload URL used twice answers as upstream: 409 "The resource already exists"', async () => {
    const bucket = admin().storage.from('render-private');
    const path = `${tag}/once.jpg`;
    const signed = await bucket.createSignedUploadUrl(path);
    expect(signed.error).toBeNull();
    const token = signed.data?.token as string;
    expect((await bucket.uploadToSignedUrl(path, token, blob(square, 'image/jpeg'))).error).toBeNull();
    const twice = await bucket.uploadToSignedUrl(path, token, blob(square, 'image/jpeg'));
    expect(twice.error).toMatchObject({ statusCode: '409', message: 'The resource already exists' });
  });
});

async function renditionFiles(): Promise<string[]> {
  const root = join(t.server.dataDir, 'storage', 'renditions');
  try {
    return (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}
