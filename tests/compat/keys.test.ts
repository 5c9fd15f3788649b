// @databases: both — issue 37 asks its compatibility items of both databases (keys, tokens and objects live in the database).
/**
 * Keys and tokens as PostgREST and Supabase Storage behind the Supabase CLI take them (decision 108):
 * no `apikey` and no token is `anon`; a project JWT in `Authorization` alone is its role; an `apikey`
 * that is sent must be one of the project's keys, and a token that is sent must verify — refused with
 * the same codes as before. Through postgrest-js and storage-js (the shipped and the newest release)
 * built with nothing but the URL, and plain fetch for auth.
 */
import { PostgrestClient as ShippedPostgrest } from '@supabase/postgrest-js';
import { StorageClient as ShippedStorage } from '@supabase/storage-js';
import { PostgrestClient as LatestPostgrest } from 'postgrest-js-latest';
import { StorageClient as LatestStorage } from 'storage-js-latest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, REST_FIXTURE_SQL } from '#tests/support/rest-fixture-schema.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { signToken, userToken } from '#tests/support/tokens.ts';
import { createUser, signIn } from '#tests/support/users.ts';

let server: ServerProcess;
let alice: string;

beforeAll(async () => {
  server = await startServerProcess({}, { sql: REST_FIXTURE_SQL });
  alice = (await signIn(server, await createUser(server, { id: ALICE, email: '1@example.com' }))).token;
  await fetch(`${server.url}/storage/v1/bucket`, {
    method: 'POST',
    headers: {
      apikey: server.serviceRoleKey,
      authorization: `Bearer ${server.serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ id: 'open-shelf', name: 'open-shelf', public: true }),
  });
});
afterAll(() => server?.close());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const foreignToken = () => signToken('a-secret-of-another-project-0123456789', { role: 'service_role' });

const CLIENTS = [
  { release: 'shipped', Postgrest: ShippedPostgrest, Storage: ShippedStorage },
  {
    release: 'newest',
    // The newest release's generics differ; the calls made here are the same in both.
    Postgrest: LatestPostgrest as unknown as typeof ShippedPostgrest,
    Storage: LatestStorage as unknown as typeof ShippedStorage,
  },
] as const;

describe.each(CLIENTS)('the data API through the $release postgrest-js', ({ Postgrest }) => {
  const rest = (headers: Record<string, string> = {}) => new Postgrest(`${server.url}/rest/v1`, { headers });

  it('reads as anon with no key and no token', async () => {
    const { data, error, status } = await rest().from('films').select('id').eq('id', 4);
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([{ id: 4 }]);
    // anon sees public notes only.
    const notes = await rest().from('notes').select('body');
    expect(notes.data).toEqual([{ body: 'alice public' }]);
  });

  it('runs as the role of a project token sent alone', async () => {
    const asAlice = await rest(bearer(alice)).from('notes').select('body').order('id');
    expect(asAlice.error).toBeNull();
    expect(asAlice.data).toEqual([{ body: 'alice public' }, { body: 'alice private' }]);
    const asService = await rest(bearer(server.serviceRoleKey)).from('secrets').select('*');
    expect(asService.error).toBeNull();
    expect(asService.data).toEqual([{ id: 1, value: 'classified' }]);
    const asAnon = await rest().from('secrets').select('*');
    expect(asAnon.error).toMatchObject({ code: '42501' });
  });

  it('refuses forged, foreign and expired tokens, and foreign keys, with the same codes', async () => {
    const forged = await rest(bearer('not-a-jwt')).from('films').select('id');
    expect(forged.status).toBe(401);
    expect(forged.error).toMatchObject({ code: 'PGRST301' });
    const foreign = await rest(bearer(await foreignToken()))
      .from('films')
      .select('id');
    expect(foreign.status).toBe(401);
    expect(foreign.error).toMatchObject({ code: 'PGRST301' });
    const expired = await rest(bearer(await userToken(server.jwtSecret, ALICE, { expiresIn: -60 })))
      .from('films')
      .select('id');
    expect(expired.status).toBe(401);
    expect(expired.error).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
    for (const apikey of ['', 'garbage', await foreignToken(), alice]) {
      const keyed = await rest({ apikey }).from('films').select('id');
      expect(keyed.status, `apikey ${apikey.slice(0, 20)}`).toBe(401);
      expect(keyed.error).toMatchObject({ code: 'PGRST301', message: 'Invalid API key' });
    }
  });
});

describe.each(CLIENTS)('storage through the $release storage-js', ({ Storage }) => {
  const storage = (headers: Record<string, string> = {}) => new Storage(`${server.url}/storage/v1`, headers);

  it('lets anon read what anon may with no key, and refuses its writes as RLS does', async () => {
    const { data, error } = await storage().getBucket('user-uploads');
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: 'user-uploads', public: true });
    const upload = await storage()
      .from('open-shelf')
      .upload('anon.txt', 'hello', { contentType: 'text/plain' });
    expect(upload.error).toMatchObject({ statusCode: '403' });
  });

  it('acts as the service role with its key sent as a bearer token alone', async () => {
    const admin = storage(bearer(server.serviceRoleKey));
    const upload = await admin
      .from('open-shelf')
      .upload('note.txt', 'hello', { contentType: 'text/plain', upsert: true });
    expect(upload.error).toBeNull();
    const list = await admin.from('open-shelf').list();
    expect(list.data?.map((object) => object.name)).toContain('note.txt');
  });

  it('refuses forged tokens and foreign keys with the same answers as before', async () => {
    const forged = await storage(bearer('not-a-jwt')).getBucket('open-shelf');
    expect(forged.error).toMatchObject({ statusCode: '403', message: 'invalid signature' });
    const foreign = await storage({ apikey: await foreignToken() }).getBucket('open-shelf');
    expect(foreign.error).toMatchObject({ statusCode: '401' });
  });
});

describe('auth without a key', () => {
  it('answers public endpoints as anon and user endpoints with a token alone', async () => {
    const settings = await fetch(`${server.url}/auth/v1/settings`);
    expect(settings.status).toBe(200);
    expect(await settings.json()).toHaveProperty('external');
    const noUser = await fetch(`${server.url}/auth/v1/user`);
    expect(noUser.status).toBe(401);
    expect(await noUser.json()).toMatchObject({ error_code: 'no_authorization' });
  });

  it('keeps refusing forged and foreign keys, and admin calls without the service role', async () => {
    for (const apikey of ['', 'garbage', await foreignToken(), alice]) {
      const response = await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey } });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error_code: 'no_authorization' });
    }
    const asUser = await fetch(`${server.url}/auth/v1/admin/users`, { headers: bearer(alice) });
    expect(asUser.status).toBe(403);
    expect(await asUser.json()).toMatchObject({ error_code: 'not_admin' });
    const asService = await fetch(`${server.url}/auth/v1/admin/users`, {
      headers: bearer(server.serviceRoleKey),
    });
    expect(asService.status).toBe(200);
  });
});
