// @databases: both — issue 37 asks its compatibility items of both databases (keys, tokens and objects live in the database).
/**
 * Issue 37 (auth): asymmetric JWT signing keys (decision 178), the new API keys (179) and GoTrue's
 * answers to password recovery and PKCE sign-in by mail for unknown addresses (188), through the
 * oldest supabase-js supported (2.109) and the app's own (the newest):
 * - user tokens signed with the current ES256 key and its `kid`; the public keys (current and
 *   previous) at /auth/v1/.well-known/jwks.json; `auth.getClaims()` verifying locally (no /user);
 *   rest, storage, realtime, functions and auth accepting tokens of the previous key and HS256 tokens,
 *   refusing forged ones; a key generated into DATA_DIR on first start, rotated with
 *   `npm run keys -- rotate`, the previous one still verifying after the restart;
 * - `sb_publishable_…` / `sb_secret_…` keys as shown by `npm run keys`, with the anon and service
 *   roles, as the `apikey` and as a Bearer token; foreign ones refused;
 * - resetPasswordForEmail and signInWithOtp (PKCE) for unknown addresses answered as GoTrue does.
 * PGlite only: what is proven here is decided in the server, not in SQL.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient as createApp, type SupabaseClient } from '@supabase/supabase-js';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { createClient as createOldest } from 'supabase-js-oldest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readOutbox, waitForMail } from '#tests/support/auth.ts';
import { freshDatabase } from '#tests/support/databases.ts';
import { ALICE, REST_FIXTURE_SQL } from '#tests/support/rest-fixture-schema.ts';
import {
  freePort,
  RELAXED_LIMITS,
  type ServerProcess,
  startServerProcess,
} from '#tests/support/server-process.ts';
import { spawnServer } from '#tests/support/spawn-server.ts';
import { apiKey, userToken } from '#tests/support/tokens.ts';
import { createUser, PASSWORD, uniqueEmail } from '#tests/support/users.ts';

/** The project's root, where `npm run keys` runs. */
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

const CLIENTS = [
  ['supabase-js 2.109 (the oldest supported)', createOldest as unknown as typeof createApp],
  ['supabase-js of the app (the newest)', createApp],
] as const;

type Create = typeof createApp;

/** A client that records the paths it calls, so a test can tell which requests were made. */
function recordingClient(create: Create, url: string, key: string, options: { accessToken?: string } = {}) {
  const calls: string[] = [];
  const client = create(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    global: {
      fetch: (input: string | URL | Request, init?: RequestInit) => {
        calls.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
        return fetch(input, init);
      },
    },
    ...(options.accessToken ? { accessToken: async () => options.accessToken as string } : {}),
  }) as SupabaseClient;
  return { client, calls };
}

function headerOf(token: string): { alg?: string; kid?: string } {
  return JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString('utf8'));
}

async function privateJwk(alg: 'ES256' | 'RS256', kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg };
}

/**
 * A user token signed with `jwk`, as the server signs them (tests/support/tokens.ts mints HS256 only):
 * for "issued before the rotation" and for forgeries under a known `kid`.
 */
async function asymmetricToken(jwk: JWK, sub: string, options: { kid?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const { importJWK } = await import('jose');
  return new SignJWT({ sub, role: 'authenticated', aud: 'authenticated', email: '' })
    .setProtectedHeader({ alg: jwk.alg as string, kid: options.kid ?? (jwk.kid as string), typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(await importJWK(jwk, jwk.alg));
}

/** `npm run keys` for a data directory and secret: the keys it shows, by name. */
function shownKeys(
  env: Record<string, string>,
  ...args: string[]
): { stdout: string; keys: Record<string, string> } {
  const result = spawnSync(join(PROJECT_ROOT, 'node_modules/.bin/tsx'), ['server/cli/keys.ts', ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`npm run keys failed: ${result.stderr}`);
  const keys: Record<string, string> = {};
  const lines = result.stdout.split('\n');
  for (const [index, line] of lines.entries()) {
    const name = /^([A-Z_]+) \(/.exec(line)?.[1];
    if (name) keys[name] = (lines[index + 1] ?? '').trim();
  }
  return { stdout: result.stdout, keys };
}

function subscribed(client: SupabaseClient, topic: string): Promise<string> {
  return new Promise((resolve) => {
    const channel = client.channel(topic);
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED' || status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        void client.removeChannel(channel);
        resolve(error ? `${status}: ${error.message}` : status);
      }
    });
  });
}

describe('with configured ES256 keys (JWT_SIGNING_KEYS: current, then previous)', () => {
  let server: ServerProcess;
  let current: JWK;
  let previous: JWK;
  let newKeys: Record<string, string>;

  beforeAll(async () => {
    current = await privateJwk('ES256', 'key-current');
    previous = await privateJwk('ES256', 'key-previous');
    server = await startServerProcess(
      {
        JWT_SIGNING_ALGORITHM: 'ES256',
        JWT_SIGNING_KEYS: JSON.stringify([current, previous]),
        SMTP_MAX_FREQUENCY: '60',
      },
      { sql: REST_FIXTURE_SQL },
    );
    await createUser(server, { id: ALICE, email: 'alice-keys@example.com' });
    newKeys = shownKeys({ DATA_DIR: server.dataDir, JWT_SECRET: server.jwtSecret }).keys;
  });
  afterAll(() => server?.close());

  it('publishes the public halves of both keys, never a private member or the secret', async () => {
    const response = await fetch(`${server.url}/auth/v1/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: JWK[] };
    expect(keys.map((key) => key.kid)).toEqual(['key-current', 'key-previous']);
    for (const key of keys) {
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', key_ops: ['verify'] });
      expect(key).not.toHaveProperty('d');
      expect(key).not.toHaveProperty('k');
    }
  });

  describe.each(CLIENTS)('%s', (_name, create) => {
    it('signs sessions with the current key and verifies them in getClaims without calling /user', async () => {
      const { client, calls } = recordingClient(create, server.url, server.anonKey);
      const { data, error } = await client.auth.signInWithPassword({
        email: 'alice-keys@example.com',
        password: PASSWORD,
      });
      expect(error).toBeNull();
      const token = data.session?.access_token as string;
      expect(headerOf(token)).toMatchObject({ alg: 'ES256', kid: 'key-current' });

      calls.length = 0;
      const claims = await client.auth.getClaims();
      expect(claims.error).toBeNull();
      expect(claims.data?.claims).toMatchObject({ sub: ALICE, role: 'authenticated' });
      expect(calls.some((path) => path.endsWith('/auth/v1/user'))).toBe(false);
      expect(calls.filter((path) => path.endsWith('/.well-known/jwks.json'))).toHaveLength(1);

      // Every service takes it: the data API under RLS, auth, storage.
      const notes = await client.from('notes').select('body').order('id');
      expect(notes.error).toBeNull();
      expect(notes.data?.length).toBeGreaterThan(0);
      expect((await client.auth.getUser()).data.user?.id).toBe(ALICE);
      expect((await client.storage.getBucket('user-uploads')).error).toBeNull();
      await client.auth.signOut();
    });

    it('accepts a token of the previous key and an HS256 token in every service; refuses forgeries', async () => {
      for (const token of [
        await asymmetricToken(previous, ALICE),
        await userToken(server.jwtSecret, ALICE),
      ]) {
        const { client } = recordingClient(create, server.url, server.anonKey, { accessToken: token });
        const notes = await client.from('notes').select('body').order('id');
        expect(notes.error).toBeNull();
        expect(notes.data).toEqual([{ body: 'alice public' }, { body: 'alice private' }]);
        const user = await fetch(`${server.url}/auth/v1/user`, {
          headers: { apikey: server.anonKey, authorization: `Bearer ${token}` },
        });
        expect(user.status).toBe(200);
        expect((await client.storage.getBucket('user-uploads')).error).toBeNull();
        const exported = await fetch(`${server.url}/functions/v1/gdpr-data-export`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        });
        expect(exported.status).toBe(200);
        expect(await subscribed(client, `keys-${headerOf(token).alg}`)).toBe('SUBSCRIBED');
        client.realtime.disconnect();
      }

      const foreign = await privateJwk('ES256', 'key-current');
      const forgeries = [
        await asymmetricToken(foreign, ALICE),
        await asymmetricToken(foreign, ALICE, { kid: 'unknown-kid' }),
        await asymmetricToken(await privateJwk('RS256', 'key-current'), ALICE),
      ];
      for (const forged of forgeries) {
        const { client } = recordingClient(create, server.url, server.anonKey, { accessToken: forged });
        const notes = await client.from('notes').select('body');
        expect(notes.status).toBe(401);
        expect(notes.error).toMatchObject({ code: 'PGRST301' });
        const user = await fetch(`${server.url}/auth/v1/user`, {
          headers: { apikey: server.anonKey, authorization: `Bearer ${forged}` },
        });
        expect(user.status).toBe(403);
        expect(await user.json()).toMatchObject({ error_code: 'bad_jwt' });
        const exported = await fetch(`${server.url}/functions/v1/gdpr-data-export`, {
          method: 'POST',
          headers: { authorization: `Bearer ${forged}`, 'content-type': 'application/json' },
        });
        expect(exported.status).toBe(401);
        client.realtime.disconnect();
      }
      // The client's own check refuses a forgery under the current key's kid.
      const claims = await recordingClient(create, server.url, server.anonKey).client.auth.getClaims(
        forgeries[0],
      );
      expect(claims.data).toBeNull();
      expect(claims.error).toMatchObject({ message: 'Invalid JWT signature' });
    });

    it('takes the publishable and secret keys as npm run keys shows them, with the anon and service roles', async () => {
      expect(newKeys.PUBLISHABLE_KEY).toMatch(/^sb_publishable_[A-Za-z0-9]{22}_[A-Za-z0-9]{8}$/);
      expect(newKeys.SECRET_KEY).toMatch(/^sb_secret_[A-Za-z0-9]{22}_[A-Za-z0-9]{8}$/);
      const publishable = recordingClient(create, server.url, newKeys.PUBLISHABLE_KEY as string).client;
      const films = await publishable.from('films').select('id').eq('id', 4);
      expect(films.error).toBeNull();
      expect(films.data).toEqual([{ id: 4 }]);
      expect((await publishable.from('notes').select('body')).data).toEqual([{ body: 'alice public' }]);
      expect((await publishable.from('secrets').select('*')).error).toMatchObject({ code: '42501' });
      expect(await subscribed(publishable, 'keys-publishable')).toBe('SUBSCRIBED');
      publishable.realtime.disconnect();

      // Signing in with the publishable key, then acting as the user.
      const { data } = await publishable.auth.signInWithPassword({
        email: 'alice-keys@example.com',
        password: PASSWORD,
      });
      expect(data.session).not.toBeNull();
      expect((await publishable.from('notes').select('body')).data?.length).toBe(2);
      await publishable.auth.signOut();

      const secret = recordingClient(create, server.url, newKeys.SECRET_KEY as string).client;
      expect((await secret.from('secrets').select('*')).data).toEqual([{ id: 1, value: 'classified' }]);
      const users = await secret.auth.admin.listUsers();
      expect(users.error).toBeNull();
      expect(users.data.users.map((user) => user.id)).toContain(ALICE);
      expect((await secret.storage.createBucket(`keys-${Date.now()}`)).error).toBeNull();
    });

    it('refuses new-format keys of another project, as the apikey and as a Bearer token', async () => {
      for (const foreign of [
        'sb_publishable_AAAAAAAAAAAAAAAAAAAAAA_BBBBBBBB',
        'sb_secret_AAAAAAAAAAAAAAAAAAAAAA_BBBBBBBB',
      ]) {
        const rest = await recordingClient(create, server.url, foreign).client.from('films').select('id');
        expect(rest.status).toBe(401);
        expect(rest.error).toMatchObject({ code: 'PGRST301', message: 'Invalid API key' });
        const admin = await fetch(`${server.url}/auth/v1/admin/users`, {
          headers: { authorization: `Bearer ${foreign}` },
        });
        expect(admin.status).toBe(403);
      }
      // A secret key as a Bearer token alone is the service role, as behind Supabase's gateway.
      const admin = await fetch(`${server.url}/auth/v1/admin/users`, {
        headers: { authorization: `Bearer ${newKeys.SECRET_KEY}` },
      });
      expect(admin.status).toBe(200);
      const asPublishable = await fetch(`${server.url}/auth/v1/admin/users`, {
        headers: { apikey: newKeys.PUBLISHABLE_KEY as string },
      });
      expect(asPublishable.status).toBe(401);
    });

    it('answers resetPasswordForEmail for an unknown address with GoTrue’s {} every time', async () => {
      const { client } = recordingClient(create, server.url, server.anonKey);
      const unknown = uniqueEmail('nobody');
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const { data, error } = await client.auth.resetPasswordForEmail(unknown, {
          redirectTo: `${server.url}/welcome`,
        });
        expect(error).toBeNull();
        expect(data).toEqual({});
      }
      // A known address asked for again within SMTP_MAX_FREQUENCY: the same {}, one mail only.
      const { email } = await createUser(server);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const { data, error } = await client.auth.resetPasswordForEmail(email);
        expect(error).toBeNull();
        expect(data).toEqual({});
      }
      await waitForMail(server.dataDir, (mail) => mail.to === email);
      expect((await readOutbox(server.dataDir)).filter((mail) => mail.to === email)).toHaveLength(1);
    });
  });
});

describe('with JWT_SIGNING_ALGORITHM=ES256 and GoTrue’s revealing answers (OTP_REVEALS_UNKNOWN_EMAIL)', () => {
  let dataDir: string;
  let url: string;
  let close: () => Promise<void> = async () => {};
  const jwtSecret = 'a-secret-for-the-rotation-test-0123456789';

  async function start(): Promise<void> {
    const port = await freePort();
    const spawned = spawnServer({
      ...RELAXED_LIMITS,
      SMTP_MAX_FREQUENCY: '60',
      OTP_REVEALS_UNKNOWN_EMAIL: 'true',
      JWT_SIGNING_ALGORITHM: 'ES256',
      SITE_URL: `http://127.0.0.1:${port}`,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET: jwtSecret,
    });
    url = (await spawned.ready).replace(/\/$/, '');
    close = async () => {
      spawned.child.kill('SIGTERM');
      await spawned.exited;
    };
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'highgrade-compat-keys-'));
    await freshDatabase(dataDir);
    await start();
  });
  afterAll(async () => {
    await close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('generates a key on first start, rotates it, and keeps the previous one verifying', async () => {
    const stored = JSON.parse(await readFile(join(dataDir, 'keys.json'), 'utf8')) as { signing_keys: JWK[] };
    expect(stored.signing_keys).toHaveLength(1);
    const first = stored.signing_keys[0] as JWK;
    expect(first).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    // The secret came from the environment: it is not written to disk.
    expect(stored).not.toHaveProperty('jwt_secret');

    const anonKey = await apiKey(jwtSecret, 'anon');
    const serviceRoleKey = await apiKey(jwtSecret, 'service_role');
    const user = await createUser({ url, serviceRoleKey });
    const before = recordingClient(createApp, url, anonKey);
    const signedIn = await before.client.auth.signInWithPassword({
      email: user.email,
      password: user.password,
    });
    const oldToken = signedIn.data.session?.access_token as string;
    expect(headerOf(oldToken)).toEqual({ alg: 'ES256', kid: first.kid, typ: 'JWT' });

    const rotated = shownKeys(
      { DATA_DIR: dataDir, JWT_SECRET: jwtSecret, JWT_SIGNING_ALGORITHM: 'ES256' },
      'rotate',
    );
    expect(rotated.stdout).toContain(`The previous key ${first.kid} keeps verifying`);
    await close();
    await start();

    const jwks = (await (await fetch(`${url}/auth/v1/.well-known/jwks.json`)).json()) as { keys: JWK[] };
    expect(jwks.keys).toHaveLength(2);
    expect(jwks.keys[1]?.kid).toBe(first.kid);
    const newKid = jwks.keys[0]?.kid;
    expect(newKid).not.toBe(first.kid);

    for (const [, create] of CLIENTS) {
      // The token issued before the rotation still verifies, locally and at the server.
      const { client, calls } = recordingClient(create, url, anonKey);
      const claims = await client.auth.getClaims(oldToken);
      expect(claims.data?.claims.sub).toBe(user.id);
      expect(calls.some((path) => path.endsWith('/auth/v1/user'))).toBe(false);
      const me = await fetch(`${url}/auth/v1/user`, {
        headers: { apikey: anonKey, authorization: `Bearer ${oldToken}` },
      });
      expect(me.status).toBe(200);
      // New sessions carry the new key.
      const fresh = recordingClient(create, url, anonKey).client;
      const again = await fresh.auth.signInWithPassword({ email: user.email, password: user.password });
      expect(headerOf(again.data.session?.access_token as string).kid).toBe(newKid);
    }
  });

  it.each(CLIENTS)('answers unknown addresses exactly as GoTrue through %s', async (_name, create) => {
    const anonKey = await apiKey(jwtSecret, 'anon');
    const pkce = create(url, anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType: 'pkce' },
      realtime: { transport: WebSocket as never },
    });
    // GoTrue's signInWithOtp in the PKCE flow when no account may be made: 422 otp_disabled.
    const otp = await pkce.auth.signInWithOtp({
      email: uniqueEmail('nobody'),
      options: { shouldCreateUser: false, emailRedirectTo: `${url}/welcome` },
    });
    expect(otp.data).toEqual({ user: null, session: null });
    expect(otp.error).toMatchObject({
      status: 422,
      code: 'otp_disabled',
      message: 'Signups not allowed for otp',
    });
    // recover: {} for an unknown address every time; GoTrue's 429 for a known one asked again.
    const unknown = uniqueEmail('nobody');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(await pkce.auth.resetPasswordForEmail(unknown)).toEqual({ data: {}, error: null });
    }
    const { email } = await createUser({ url, serviceRoleKey: await apiKey(jwtSecret, 'service_role') });
    expect((await pkce.auth.resetPasswordForEmail(email)).error).toBeNull();
    const second = await pkce.auth.resetPasswordForEmail(email);
    expect(second.data).toBeNull();
    expect(second.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  });
});
