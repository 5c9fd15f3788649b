/**
 * Buckets through supabase-js only, on both backends: create (limits as numbers and strings, type
 * lists with wildcards), list with its options, get, update, empty and delete — and who may do it
 * (row-level security on storage.buckets: only the service key, as on a fresh Supabase project).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { BACKENDS, blob, PNG } from '#tests/support/storage.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';
import { type StorageTestServer, startStorageServer } from './storage-support.ts';

describe.each(BACKENDS)('storage buckets on the %s backend', (backend) => {
  let t: StorageTestServer;
  let admin: SupabaseClient;
  let user: SignedInUser;

  beforeAll(async () => {
    t = await startStorageServer(backend);
    admin = adminClient(t.server);
    user = await signedInUser(t.server);
  });
  afterAll(() => t?.close());

  it('ships the product buckets, public, 5 MB, images only', async () => {
    const { data, error } = await admin.storage.listBuckets();
    expect(error).toBeNull();
    const product = data?.filter((bucket) => ['user-uploads', 'community-review-media'].includes(bucket.id));
    expect(product).toHaveLength(2);
    for (const bucket of product ?? []) {
      expect(bucket).toMatchObject({
        public: true,
        file_size_limit: 5242880,
        allowed_mime_types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
        type: 'STANDARD',
      });
    }
    // Their settings are readable by anyone (the web app shows the limits).
    const anonymous = await anonClient(t.server).storage.getBucket('user-uploads');
    expect(anonymous.data).toMatchObject({ id: 'user-uploads', file_size_limit: 5242880 });
  });

  it('creates a bucket with a limit given as a number or with a unit, and wildcard types', async () => {
    const created = await admin.storage.createBucket('photos', {
      public: true,
      fileSizeLimit: '1.5MB',
      allowedMimeTypes: ['image/*'],
    });
    expect(created).toEqual({ data: { name: 'photos' }, error: null });
    const { data } = await admin.storage.getBucket('photos');
    expect(data).toMatchObject({
      id: 'photos',
      name: 'photos',
      public: true,
      file_size_limit: 1500000,
      allowed_mime_types: ['image/*'],
    });
    expect(data?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(
      (await admin.storage.createBucket('numbers', { public: false, fileSizeLimit: 2048 })).error,
    ).toBeNull();
    expect((await admin.storage.getBucket('numbers')).data).toMatchObject({
      public: false,
      file_size_limit: 2048,
    });
    // image/* admits a PNG and refuses text.
    expect((await admin.storage.from('photos').upload('a.png', blob(PNG, 'image/png'))).error).toBeNull();
    const text = await admin.storage.from('photos').upload('a.txt', 'text', { contentType: 'text/plain' });
    expect(text.error).toMatchObject({ status: 415, message: 'mime type text/plain is not supported' });
  });

  it('refuses duplicates, bad names, bad limits and bad types', async () => {
    await admin.storage.createBucket('twice', { public: false });
    expect((await admin.storage.createBucket('twice', { public: false })).error).toMatchObject({
      status: 409,
      statusCode: '409',
      message: 'The resource already exists',
    });
    for (const name of ['a/b', '', 'x'.repeat(101), ' padded', 'public', 'a\\b']) {
      const { error } = await admin.storage.createBucket(name, { public: false });
      expect(error, JSON.stringify(name)).toMatchObject({ status: 400 });
    }
    const limit = await admin.storage.createBucket('limits', { public: false, fileSizeLimit: '20 parsecs' });
    expect(limit.error).toMatchObject({
      status: 400,
      message: 'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B',
    });
    const tooBig = await admin.storage.createBucket('limits', { public: false, fileSizeLimit: '2GB' });
    expect(tooBig.error).toMatchObject({ status: 400 });
    const types = await admin.storage.createBucket('types', {
      public: false,
      allowedMimeTypes: ['not a type'],
    });
    expect(types.error).toMatchObject({ status: 400 });
  });

  it('lists with limit, offset, search and sort', async () => {
    for (const id of ['list-a', 'list-b', 'list-c']) await admin.storage.createBucket(id, { public: false });
    const { data } = await admin.storage.listBuckets({
      search: 'list-',
      sortColumn: 'name',
      sortOrder: 'desc',
    });
    expect(data?.map((bucket) => bucket.id)).toEqual(['list-c', 'list-b', 'list-a']);
    const page = await admin.storage.listBuckets({ search: 'list-', limit: 1, offset: 1, sortColumn: 'id' });
    expect(page.data?.map((bucket) => bucket.id)).toEqual(['list-b']);
    // % and _ in a search match themselves.
    expect((await admin.storage.listBuckets({ search: 'list_' })).data).toEqual([]);
  });

  it('updates only the settings given', async () => {
    await admin.storage.createBucket('changing', {
      public: false,
      fileSizeLimit: 1000,
      allowedMimeTypes: ['text/plain'],
    });
    expect(await admin.storage.updateBucket('changing', { public: true })).toEqual({
      data: { message: 'Successfully updated' },
      error: null,
    });
    expect((await admin.storage.getBucket('changing')).data).toMatchObject({
      public: true,
      file_size_limit: 1000,
      allowed_mime_types: ['text/plain'],
    });
    await admin.storage.updateBucket('changing', {
      public: true,
      fileSizeLimit: null,
      allowedMimeTypes: null,
    });
    expect((await admin.storage.getBucket('changing')).data).toMatchObject({
      file_size_limit: null,
      allowed_mime_types: null,
    });
    expect((await admin.storage.updateBucket('no-such', { public: true })).error).toMatchObject({
      status: 404,
      message: 'Bucket not found',
    });
  });

  it('deletes only an empty bucket; empty deletes the objects and their blobs', async () => {
    await admin.storage.createBucket('full', { public: false });
    const before = await t.blobs();
    for (const name of ['a.txt', 'b/c.txt']) {
      await admin.storage.from('full').upload(name, name, { contentType: 'text/plain' });
    }
    expect((await admin.storage.deleteBucket('full')).error).toMatchObject({
      status: 409,
      message: 'The bucket you tried to delete is not empty',
    });
    expect(await admin.storage.emptyBucket('full')).toEqual({
      data: { message: 'Empty bucket has been queued. Completion may take up to an hour.' },
      error: null,
    });
    expect(await t.blobs()).toEqual(before);
    expect(await admin.storage.deleteBucket('full')).toEqual({
      data: { message: 'Successfully deleted' },
      error: null,
    });
    expect((await admin.storage.getBucket('full')).error).toMatchObject({
      status: 404,
      message: 'Bucket not found',
    });
    expect((await admin.storage.deleteBucket('full')).error).toMatchObject({ status: 404 });
    expect((await admin.storage.emptyBucket('full')).error).toMatchObject({ status: 404 });
  });

  it('lets only the service key manage buckets', async () => {
    for (const client of [anonClient(t.server), user.client]) {
      const created = await client.storage.createBucket('mine', { public: true });
      expect(created.error).toMatchObject({
        status: 403,
        statusCode: '403',
        message: 'new row violates row-level security policy',
      });
      expect((await client.storage.updateBucket('user-uploads', { public: false })).error).toMatchObject({
        status: 404,
      });
      expect((await client.storage.deleteBucket('user-uploads')).error).toMatchObject({ status: 404 });
      expect((await client.storage.emptyBucket('numbers')).error).toMatchObject({ status: 404 });
      // Buckets other than the product's (uploads, review media, Pass or Gas product images, brand
      // logos) are invisible to them.
      const { data } = await client.storage.listBuckets();
      expect(data?.map((bucket) => bucket.id).sort()).toEqual([
        'brand-logos',
        'community-review-media',
        'product-images',
        'user-uploads',
      ]);
    }
    expect((await admin.storage.getBucket('user-uploads')).data?.public).toBe(true);
  });
});
