/**
 * Upgrades (decision 219). An install made by an earlier release — the schema files at commit ad0bec2
 * (2026-11-26): the migrations listed in tests/fixtures/release-ad0bec2/migrations.txt, unchanged
 * since and read from today's folders, and the definitions as they were then, copied into the
 * fixture — holds what that release's API wrote: an account with a password, a signed-in session, a
 * booking, a stored file. The current server then starts on it as `npm start` does, applies the newer
 * files, and supabase-js finds it all: the password signs in, the old refresh token refreshes, row-level
 * security reads the booking, the file downloads. A second install got a newer migration before older
 * ones (a branch merged later with an earlier timestamp): the current server applies the rest out of
 * timestamp order and the same checks pass, so out-of-order application is accepted for today's set.
 * PGlite only: what is proven is the migrator and the files, and a new install is embedded.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomToken, sha256Hex } from '#server/auth/crypto.ts';
import { insertIdentity, insertSession, insertUser, updateUser } from '#server/auth/db.ts';
import { hashPassword } from '#server/auth/passwords.ts';
import { MIGRATION_SOURCES, type MigrationSource, migrate, readMigrations } from '#server/db/migrate.ts';
import { openPglite } from '#server/db/pglite.ts';
import { PROJECT_ROOT } from '#server/paths.ts';
import { FileBackend } from '#server/storage/backends/file.ts';
import { insertObject } from '#server/storage/db.ts';
import { adminClient, anonClient, clientFor, type ServerKeys } from '#tests/support/clients.ts';
import { freePort, RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { spawnServer } from '#tests/support/spawn-server.ts';
import { pngOfSize } from '#tests/support/storage.ts';
import { apiKey } from '#tests/support/tokens.ts';
import { PASSWORD } from '#tests/support/users.ts';

const FIXTURE = join(PROJECT_ROOT, 'tests/fixtures/release-ad0bec2');
const DEFINITIONS: Record<string, string> = {
  'platform/realtime': join(FIXTURE, 'realtime-definitions'),
  app: join(FIXTURE, 'supabase-definitions'),
};

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/**
 * The earlier release's schema files in folders of their own, as MIGRATION_SOURCES lays them out:
 * its migrations (plus `extra` of today's, to apply early) and its definitions.
 */
async function releaseSources(root: string, extra: string[] = []): Promise<MigrationSource[]> {
  const listed = (await readFile(join(FIXTURE, 'migrations.txt'), 'utf8')).split('\n').filter(Boolean);
  const files = [...listed, ...extra];
  return Promise.all(
    MIGRATION_SOURCES.map(async (source, index) => {
      const dir = join(root, `layer-${index}`);
      await mkdir(dir, { recursive: true });
      const relativeDir = source.dir.slice(PROJECT_ROOT.length + 1);
      for (const file of files.filter((path) => path.startsWith(`${relativeDir}/`))) {
        await copyFile(join(PROJECT_ROOT, file), join(dir, file.slice(relativeDir.length + 1)));
      }
      const definitions = DEFINITIONS[source.layer];
      const release: MigrationSource = { layer: source.layer, naming: source.naming, dir };
      if (definitions) release.definitions = definitions;
      return release;
    }),
  );
}

interface OldData {
  userId: string;
  email: string;
  refreshToken: string;
  fileName: string;
  file: Buffer;
}

/** What the earlier release's API wrote for a member, with that release's schema and triggers. */
async function installEarlierRelease(extra: string[] = []): Promise<{ dataDir: string; data: OldData }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-upgrade-'));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const sources = await releaseSources(join(dataDir, 'release'), extra);
  const db = await openPglite({ dataDir });
  const userId = randomUUID();
  const email = `upgrade-${randomBytes(4).toString('hex')}@example.com`;
  const refreshToken = randomToken();
  const fileName = `${userId}/avatar-1763700000000.png`;
  const file = pngOfSize(20_000, 3);
  try {
    const applied = await migrate(db, { sources });
    expect(applied.length).toBeGreaterThan(100);
    const passwordHash = await hashPassword(PASSWORD);
    const key = randomUUID();
    await db.transaction(async (tx) => {
      const identity = { sub: userId, email, email_verified: true, phone_verified: false };
      await insertUser(tx, {
        id: userId,
        email,
        encryptedPassword: passwordHash,
        emailConfirmed: false,
        invited: false,
        appMetadata: { provider: 'email', providers: ['email'] },
        userMetadata: { full_name: 'Earlier Member', ...identity },
      });
      await updateUser(tx, userId, { emailConfirmedNow: true });
      await insertIdentity(tx, { userId, provider: 'email', providerId: userId, data: identity });
      await insertSession(tx, {
        id: randomUUID(),
        userId,
        tokenHash: sha256Hex(refreshToken),
        method: 'password',
        userAgent: null,
        ip: null,
        provider: 'email',
      });
      await tx.query(
        `insert into public.bookings (user_id, full_name, email, product_name, product_category, booking_date, booking_time)
         values ($1, 'Brand Owner', $2, 'Gummies', 'Edibles', current_date + 5, '14:30')`,
        [userId, email],
      );
      await insertObject(tx, {
        bucketId: 'user-uploads',
        name: fileName,
        owner: userId,
        version: key,
        metadata: {
          eTag: '"upgrade"',
          size: file.length,
          mimetype: 'image/png',
          cacheControl: 'max-age=3600',
          lastModified: new Date().toISOString(),
          contentLength: file.length,
          httpStatusCode: 200,
        },
        userMetadata: null,
      });
    });
    const files = await FileBackend.open(join(dataDir, 'storage'));
    const write = await files.startWrite(key, { contentType: 'image/png', cacheControl: 'max-age=3600' });
    write.stream.end(file);
    await new Promise<void>((resolve, reject) => {
      write.stream.once('finish', resolve);
      write.stream.once('error', reject);
    });
    await write.commit();
    await files.close();
  } finally {
    await db.close();
  }
  return { dataDir, data: { userId, email, refreshToken, fileName, file } };
}

/** Today's server on the install, as `npm start` runs it: it applies the newer files first. */
async function startCurrent(dataDir: string): Promise<ServerKeys & { stop(): Promise<void> }> {
  const jwtSecret = randomBytes(48).toString('base64url');
  const port = await freePort();
  const server = spawnServer({
    ...RELAXED_LIMITS,
    HOST: '127.0.0.1',
    PORT: String(port),
    SITE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    JWT_SECRET: jwtSecret,
  });
  const stop = async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
    await server.exited;
  };
  cleanup.push(stop);
  const url = (await server.ready).replace(/\/$/, '');
  return {
    url,
    anonKey: await apiKey(jwtSecret, 'anon'),
    serviceRoleKey: await apiKey(jwtSecret, 'service_role'),
    stop,
  };
}

async function expectEverythingKept(server: ServerKeys, data: OldData): Promise<void> {
  const refreshed = await clientFor(server).auth.refreshSession({ refresh_token: data.refreshToken });
  expect(refreshed.error).toBeNull();
  expect(refreshed.data.user?.id).toBe(data.userId);

  const member = clientFor(server);
  const signIn = await member.auth.signInWithPassword({ email: data.email, password: PASSWORD });
  expect(signIn.error).toBeNull();
  expect(signIn.data.user?.id).toBe(data.userId);
  const bookings = await member.from('bookings').select('user_id, product_name');
  expect(bookings.error).toBeNull();
  expect(bookings.data).toEqual([{ user_id: data.userId, product_name: 'Gummies' }]);
  expect((await anonClient(server).from('bookings').select('id')).data).toEqual([]);

  const download = await member.storage.from('user-uploads').download(data.fileName);
  expect(download.error).toBeNull();
  expect(Buffer.from(await (download.data as Blob).arrayBuffer()).equals(data.file)).toBe(true);

  // The newer schema works for new writes too.
  const service = adminClient(server);
  const created = await service.auth.admin.createUser({
    email: `after-${randomBytes(4).toString('hex')}@example.com`,
    password: PASSWORD,
    email_confirm: true,
  });
  expect(created.error).toBeNull();
}

/** After the server stopped: every current schema file is recorded as applied, with today's checksum. */
async function expectCurrentSchema(dataDir: string): Promise<void> {
  const db = await openPglite({ dataDir });
  try {
    const { rows } = await db.query<{ file: string }>(
      `select layer || '/' || name || ' ' || checksum as file from _platform.migrations order by 1`,
    );
    const today = (await readMigrations())
      .map((file) => `${file.layer}/${file.name} ${file.checksum}`)
      .sort();
    expect(rows.map((row) => row.file)).toEqual(today);
  } finally {
    await db.close();
  }
}

describe('upgrading an install of an earlier release', () => {
  it('starts on it, applies the newer files and keeps accounts, sessions, rows and files', async () => {
    const { dataDir, data } = await installEarlierRelease();
    const server = await startCurrent(dataDir);
    await expectEverythingKept(server, data);
    await server.stop();
    await expectCurrentSchema(dataDir);
  }, 240_000);

  it('applies migrations older than one already applied (out of timestamp order) and keeps everything', async () => {
    const newest = 'supabase/migrations/20261128680000_samples_partial_indexes.sql';
    const { dataDir, data } = await installEarlierRelease([newest]);
    // Older than the one applied early, and not applied yet: the server applies them after it.
    const pending = (await readMigrations()).filter(
      (file) => file.layer === 'app' && file.kind === 'migration' && file.name < '20261128680000',
    );
    expect(pending.some((file) => file.name > '20261124700000')).toBe(true);
    const server = await startCurrent(dataDir);
    await expectEverythingKept(server, data);
    await server.stop();
    await expectCurrentSchema(dataDir);
  }, 240_000);
});
