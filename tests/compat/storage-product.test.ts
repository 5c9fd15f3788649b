// @databases: both — the product buckets' storage policies.
/**
 * The product's own use of storage (product §buckets, §avatar, §admin), exactly as the web app calls
 * supabase-js, on both backends: avatar upload → public URL returns the same bytes → the previous
 * avatar is removed → "Remove Photo"; and admin post media under admin-posts/ with random names.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '#tests/support/clients.ts';
import { BACKENDS, blob, GIF, pngOfSize } from '#tests/support/storage.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';
import { type StorageTestServer, startStorageServer } from './storage-support.ts';

describe.each(BACKENDS)('the product on the %s backend', (backend) => {
  let t: StorageTestServer;
  let member: SignedInUser;
  let admin: SignedInUser;

  beforeAll(async () => {
    t = await startStorageServer(backend);
    member = await signedInUser(t.server);
    admin = await signedInUser(t.server, { admin: true });
  });
  afterAll(() => t?.close());

  /** What the avatar control does: {userId}/avatar-{timestamp}.{ext}, cache 3600, no overwrite. */
  async function uploadAvatar(user: SignedInUser, file: Blob, extension: string, timestamp: number) {
    const path = `${user.id}/avatar-${timestamp}.${extension}`;
    const { error } = await user.client.storage
      .from('user-uploads')
      .upload(path, file, { cacheControl: '3600', upsert: false });
    expect(error).toBeNull();
    const { data } = user.client.storage.from('user-uploads').getPublicUrl(path);
    return { path, publicUrl: data.publicUrl };
  }

  it('uploads an avatar, serves it publicly, replaces it and removes the old one', async () => {
    const first = pngOfSize(40_000, 1);
    const avatar = await uploadAvatar(member, blob(first, 'image/png'), 'png', 1_763_700_000_000);
    expect(avatar.publicUrl).toBe(`${t.url}/storage/v1/object/public/user-uploads/${avatar.path}`);

    // Anyone (an <img> tag, no credentials) gets the same bytes, cacheable for an hour.
    const response = await fetch(avatar.publicUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('max-age=3600');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(Buffer.from(await response.arrayBuffer()).equals(first)).toBe(true);

    // A second upload to the same name is refused: avatars are never overwritten.
    const again = await member.client.storage
      .from('user-uploads')
      .upload(avatar.path, blob(first, 'image/png'), { cacheControl: '3600', upsert: false });
    expect(again.error).toMatchObject({ status: 409 });

    // A new avatar gets a new name; on success the previous file is deleted.
    const second = pngOfSize(50_000, 2);
    const next = await uploadAvatar(member, blob(second, 'image/png'), 'png', 1_763_700_000_001);
    const removed = await member.client.storage.from('user-uploads').remove([avatar.path]);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((entry) => entry.name)).toEqual([avatar.path]);
    expect((await fetch(avatar.publicUrl)).status).toBe(404);
    expect(Buffer.from(await (await fetch(next.publicUrl)).arrayBuffer()).equals(second)).toBe(true);

    // The member sees their folder; another member and visitors do not.
    const own = await member.client.storage.from('user-uploads').list(member.id);
    expect(own.data?.map((entry) => entry.name)).toEqual(['avatar-1763700000001.png']);
    const other = await signedInUser(t.server);
    expect((await other.client.storage.from('user-uploads').list(member.id)).data).toEqual([]);
    expect((await anonClient(t.server).storage.from('user-uploads').list(member.id)).data).toEqual([]);

    // "Remove Photo" deletes the file.
    expect((await member.client.storage.from('user-uploads').remove([next.path])).data).toHaveLength(1);
    expect((await fetch(next.publicUrl)).status).toBe(404);
    expect((await member.client.storage.from('user-uploads').list(member.id)).data).toEqual([]);
  });

  it('accepts every image type of the spec and refuses the rest', async () => {
    const webp = Buffer.from('524946461a000000574542505650384c0d0000002f00000010071011118888fe0700', 'hex');
    const jpeg = Buffer.from(
      'ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffc0000b080001000101011100ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffda0008010100003f00fbd3ffd9',
      'hex',
    );
    const images: [Buffer, string, string][] = [
      [jpeg, 'image/jpeg', 'jpg'],
      [GIF, 'image/gif', 'gif'],
      [webp, 'image/webp', 'webp'],
      [pngOfSize(1000), 'image/png', 'png'],
    ];
    for (const [bytes, type, extension] of images) {
      const path = `${member.id}/avatar-${randomUUID().slice(0, 8)}.${extension}`;
      const { error } = await member.client.storage.from('user-uploads').upload(path, blob(bytes, type));
      expect(error, type).toBeNull();
      const served = await fetch(
        member.client.storage.from('user-uploads').getPublicUrl(path).data.publicUrl,
      );
      expect(served.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    }
    const bmp = Buffer.concat([Buffer.from('424d', 'hex'), Buffer.alloc(60)]);
    const refused = await member.client.storage
      .from('user-uploads')
      .upload(`${member.id}/avatar-1.bmp`, blob(bmp, 'image/bmp'));
    expect(refused.error).toMatchObject({ status: 415, message: 'mime type image/bmp is not supported' });
  });

  it('refuses an avatar over 5 MB (5*1024*1024 bytes) and accepts one of exactly 5 MB', async () => {
    const limit = 5 * 1024 * 1024;
    const tooBig = await member.client.storage
      .from('user-uploads')
      .upload(`${member.id}/avatar-big.png`, blob(pngOfSize(limit + 1), 'image/png'));
    expect(tooBig.error).toMatchObject({
      status: 413,
      message: 'The object exceeded the maximum allowed size',
    });
    const exact = await member.client.storage
      .from('user-uploads')
      .upload(`${member.id}/avatar-exact.png`, blob(pngOfSize(limit), 'image/png'));
    expect(exact.error).toBeNull();
    expect(
      (await member.client.storage.from('user-uploads').info(`${member.id}/avatar-exact.png`)).data?.size,
    ).toBe(limit);
  });

  it('lets admins upload post media under admin-posts/ with random names, and nobody else', async () => {
    const name = `admin-posts/${randomUUID()}.gif`;
    const uploaded = await admin.client.storage
      .from('community-review-media')
      .upload(name, blob(GIF, 'image/gif'));
    expect(uploaded.error).toBeNull();
    expect(uploaded.data?.fullPath).toBe(`community-review-media/${name}`);
    const { publicUrl } = admin.client.storage.from('community-review-media').getPublicUrl(name).data;
    const served = await fetch(publicUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(GIF)).toBe(true);

    const refused = await member.client.storage
      .from('community-review-media')
      .upload(`admin-posts/${randomUUID()}.gif`, blob(GIF, 'image/gif'));
    expect(refused.error).toMatchObject({
      status: 403,
      message: 'new row violates row-level security policy',
    });
    const elsewhere = await admin.client.storage
      .from('community-review-media')
      .upload(`${randomUUID()}.gif`, blob(GIF, 'image/gif'));
    expect(elsewhere.error).toMatchObject({ status: 403 });

    // Deleting a post deletes its media.
    expect((await member.client.storage.from('community-review-media').remove([name])).data).toEqual([]);
    expect((await admin.client.storage.from('community-review-media').remove([name])).data).toHaveLength(1);
    expect((await fetch(publicUrl)).status).toBe(404);
  });
});
