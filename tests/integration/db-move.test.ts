// @databases: both — the move reads the embedded database and writes a PostgreSQL one
/**
 * `npm run db:move -- postgres://…` (decision 218), run as an operator runs it. On the PostgreSQL tier
 * (TEST_PG_URL): an embedded install that members used — accounts and sessions, votes, comments,
 * privacy settings, saved articles, reports, bookings, stored files, the realtime change feed — is
 * moved to a fresh PostgreSQL database, a server is started on the moved copy, and supabase-js finds
 * everything: the old password signs in, a refresh token from before the move refreshes, row-level
 * security reads as before, files download, every table counts as many rows, and new writes take
 * fresh ids. A second move into the now non-empty database is refused. On the PGlite tier, which has
 * no PostgreSQL to move to, the refusals that need none: a bad URL, and a DATA_DIR a server holds.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#server/paths.ts';
import { adminClient, anonClient, clientFor, type ServerKeys } from '#tests/support/clients.ts';
import { createPostgresDatabase, testDatabase } from '#tests/support/databases.ts';
import { freePort, RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { type SpawnedServer, spawnServer } from '#tests/support/spawn-server.ts';
import { blob, pngOfSize } from '#tests/support/storage.ts';
import { apiKey } from '#tests/support/tokens.ts';
import { PASSWORD, type SignedInUser, signedInUser, uniqueEmail } from '#tests/support/users.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function move(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/cli/db-move.ts', ...args],
      { cwd: PROJECT_ROOT, env: { ...process.env, ...env, DATABASE_URL: '' }, timeout: 180_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

interface Install extends ServerKeys {
  process: SpawnedServer;
  stop(): Promise<void>;
}

/** The server as `npm start` runs it, on DATA_DIR and (when given) DATABASE_URL. */
async function startInstall(dataDir: string, jwtSecret: string, databaseUrl?: string): Promise<Install> {
  const port = await freePort();
  const server = spawnServer({
    ...RELAXED_LIMITS,
    HOST: '127.0.0.1',
    PORT: String(port),
    SITE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    JWT_SECRET: jwtSecret,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const url = (await server.ready).replace(/\/$/, '');
  return {
    url,
    anonKey: await apiKey(jwtSecret, 'anon'),
    serviceRoleKey: await apiKey(jwtSecret, 'service_role'),
    process: server,
    async stop() {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
      await server.exited;
    },
  };
}

const check = ({ error }: { error: unknown }) => {
  if (error) throw error;
};

const DAY = 86_400_000;
const isoDate = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** Row counts of every table the move copies, as the given connection sees them. */
async function countAll(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: string; name: string }>(
      `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
          and not (n.nspname = '_platform' and c.relname = 'migrations')`,
    );
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const { rows: counted } = await client.query<{ n: string }>(
        `select count(*)::text as n from "${row.schema}"."${row.name}"`,
      );
      counts[`${row.schema}.${row.name}`] = Number(counted[0]?.n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

if (testDatabase() === 'postgres') {
  describe('npm run db:move: an embedded install used by members, moved to PostgreSQL', () => {
    let dataDir: string;
    let target: { url: string; drop(): Promise<void> };
    const jwtSecret = randomBytes(48).toString('base64url');
    let before: Install | undefined;
    let after: Install | undefined;
    let alice: SignedInUser;
    let bob: SignedInUser;
    let aliceRefresh: string;
    let bobEmail: string;
    /** A real product members vote on and discuss (samples take neither, decision 166). */
    let productId: string;
    const avatar = pngOfSize(30_000, 7);
    let avatarPath: string;
    let moved: Run;
    let embeddedCounts: Record<string, number>;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'highgrade-db-move-'));
      target = await createPostgresDatabase();
      const embedded = await startInstall(dataDir, jwtSecret);
      before = embedded;
      const service = adminClient(embedded);
      const product = await service
        .from('products')
        .insert({ name: 'Moved Kush', category: 'Flower' })
        .select('id')
        .single();
      check(product);
      productId = (product.data as { id: string }).id;
      alice = await signedInUser(embedded);
      bobEmail = uniqueEmail('bob');
      bob = await signedInUser(embedded, { email: bobEmail });
      for (const member of [alice, bob]) {
        const { client, id } = member;
        check(await client.from('privacy_settings').upsert({ user_id: id, profile_visibility: 'private' }));
        check(
          await client.from('product_votes').insert({ user_id: id, product_id: productId, vote_type: 'gas' }),
        );
        check(
          await client
            .from('product_comments')
            .insert({ user_id: id, product_id: productId, content: 'Smooth' }),
        );
        check(
          await client
            .from('saved_articles')
            .insert({ user_id: id, article_title: 'News', article_url: `https://news.example/${id}` }),
        );
        check(
          await client.from('bookings').insert({
            user_id: id,
            full_name: 'Brand Owner',
            email: member.email,
            product_name: 'Gummies',
            product_category: 'Edibles',
            booking_date: isoDate(5),
            booking_time: '14:30',
          }),
        );
        check(
          await client.from('scammer_reports').insert({
            truth_confirmed_at: new Date().toISOString(),
            scammer_name: 'Shady Sam',
            scammer_description: 'Sells fake lab results.',
            incident_details: 'Paid 300 dollars for an ounce that never arrived; phone off since.',
            location: 'Denver, CO',
            business_name: 'Sam Supplies LLC',
            contact_info: 'sam at shady.example, +1 555 0100',
            amount_scammed: 300.5,
            date_of_incident: isoDate(-3),
            reporter_user_id: id,
          }),
        );
      }
      avatarPath = `${alice.id}/avatar-1763700000000.png`;
      check(
        await alice.client.storage
          .from('user-uploads')
          .upload(avatarPath, blob(avatar, 'image/png'), { cacheControl: '3600', upsert: false }),
      );
      // A session whose refresh token is used only after the move.
      const session = await clientFor(embedded, {}).auth.signInWithPassword({
        email: alice.email,
        password: PASSWORD,
      });
      check(session);
      aliceRefresh = session.data.session?.refresh_token as string;
      expect(aliceRefresh).toBeTruthy();
      expect((await service.auth.admin.listUsers()).data.users.length).toBeGreaterThanOrEqual(2);
      await embedded.stop();
      before = undefined;

      moved = await move({ DATA_DIR: dataDir }, target.url);
      after = await startInstall(dataDir, jwtSecret, target.url);
    }, 400_000);

    afterAll(async () => {
      await before?.stop();
      await after?.stop();
      await target?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('moves every table, says how many rows and what to set', async () => {
      expect(moved.stderr).toBe('');
      expect(moved.code).toBe(0);
      expect(moved.stdout).toMatch(
        /moved \d+ rows in \d+ tables and \d+ sequences in [\d.]+ s \(copy [\d.]+ s, \d+ rows\/s\)/,
      );
      expect(moved.stdout).toContain(`DATABASE_URL=${target.url}`);
      expect(moved.stdout).toContain('auth.users: ');
      expect(moved.stdout).toMatch(/^storage\.objects: [1-9]\d* rows$/m);
      // Every table of the target holds what the embedded database held (the CLI compared them too).
      const lines = moved.stdout.split('\n').filter((line) => /^[a-z_]+\.[a-z_0-9]+: \d+ rows$/.test(line));
      embeddedCounts = Object.fromEntries(
        lines.map((line) => {
          const [table, rows] = line.split(': ') as [string, string];
          return [table, Number.parseInt(rows, 10)];
        }),
      );
      const counts = await countAll(target.url);
      for (const [table, rows] of Object.entries(embeddedCounts)) {
        // Tables the running server writes by itself (its job runs, the change feed) may only grow.
        expect(counts[table], table).toBeGreaterThanOrEqual(rows);
      }
      expect(embeddedCounts['public.bookings']).toBeGreaterThanOrEqual(2);
      expect(embeddedCounts['public.product_votes']).toBeGreaterThanOrEqual(2);
    });

    it('signs in with the old password and refreshes a session from before the move', async () => {
      const install = after as Install;
      const signIn = await clientFor(install, {}).auth.signInWithPassword({
        email: bobEmail,
        password: PASSWORD,
      });
      expect(signIn.error).toBeNull();
      expect(signIn.data.user?.id).toBe(bob.id);

      const refreshed = await clientFor(install, {}).auth.refreshSession({ refresh_token: aliceRefresh });
      expect(refreshed.error).toBeNull();
      expect(refreshed.data.user?.id).toBe(alice.id);
      const wrong = await clientFor(install, {}).auth.signInWithPassword({
        email: bobEmail,
        password: 'nope-nope',
      });
      expect(wrong.error?.code).toBe('invalid_credentials');
    });

    it('reads through row-level security as before, and downloads the stored file', async () => {
      const install = after as Install;
      const client = clientFor(install, {});
      check(await client.auth.signInWithPassword({ email: alice.email, password: PASSWORD }));
      const own = await client.from('bookings').select('user_id, product_name');
      expect(own.error).toBeNull();
      expect(own.data).toEqual([{ user_id: alice.id, product_name: 'Gummies' }]);
      const saved = await client.from('saved_articles').select('article_url');
      expect(saved.data).toEqual([{ article_url: `https://news.example/${alice.id}` }]);
      const anon = await anonClient(install).from('bookings').select('id');
      expect(anon.data).toEqual([]);

      const download = await client.storage.from('user-uploads').download(avatarPath);
      expect(download.error).toBeNull();
      expect(Buffer.from(await (download.data as Blob).arrayBuffer()).equals(avatar)).toBe(true);
      const listed = await client.storage.from('user-uploads').list(alice.id);
      expect(listed.data?.map((object) => object.name)).toEqual(['avatar-1763700000000.png']);
    });

    it('takes new accounts and writes with fresh ids (sequences moved)', async () => {
      const install = after as Install;
      const carol = await signedInUser(install);
      const service: SupabaseClient = adminClient(install);
      const booking = await carol.client
        .from('bookings')
        .insert({
          user_id: carol.id,
          full_name: 'Brand Owner',
          email: carol.email,
          product_name: 'Tincture',
          product_category: 'Edibles',
          booking_date: isoDate(6),
          booking_time: '10:00',
        })
        .select('id')
        .single();
      expect(booking.error).toBeNull();
      const all = await service.from('bookings').select('id');
      expect(all.data?.length).toBe((embeddedCounts['public.bookings'] ?? 0) + 1);
      expect(new Set(all.data?.map((row) => row.id)).size).toBe(all.data?.length);
      const comment = await carol.client
        .from('product_comments')
        .insert({ user_id: carol.id, product_id: productId, content: 'Earthy' });
      expect(comment.error).toBeNull();
      const votes = await service.from('product_votes').select('user_id').eq('product_id', productId);
      expect(votes.data?.map((row) => row.user_id)).toEqual(expect.arrayContaining([alice.id, bob.id]));
    });

    it('refuses to move into a database that is not empty, saying what it holds', async () => {
      await (after as Install).stop();
      const again = await move({ DATA_DIR: dataDir }, target.url);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/^highgrade: The target database .* is not empty \(table /);
      expect(again.stderr).toContain('db:move copies into an empty database only');
    });
  });
} else {
  describe('npm run db:move: refusals that need no PostgreSQL', () => {
    let dataDir: string;
    let install: Install | undefined;
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'highgrade-db-move-'));
    });
    afterAll(async () => {
      await install?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('refuses a missing or non-PostgreSQL URL with its usage', async () => {
      const none = await move({ DATA_DIR: dataDir });
      expect(none.code).toBe(64);
      expect(none.stderr).toContain('Usage: npm run db:move -- postgres://');
      const mysql = await move({ DATA_DIR: dataDir }, 'mysql://root@127.0.0.1/db');
      expect(mysql.code).toBe(64);
    });

    it('refuses a DATA_DIR without a database, and one a running server holds', async () => {
      const empty = await move({ DATA_DIR: dataDir }, 'postgres://postgres@127.0.0.1:1/none');
      expect(empty).toMatchObject({
        code: 2,
        stderr: `highgrade: There is no embedded database in DATA_DIR ${dataDir} to move.\n`,
      });
      install = await startInstall(dataDir, randomBytes(48).toString('base64url'));
      const held = await move({ DATA_DIR: dataDir }, 'postgres://postgres@127.0.0.1:1/none');
      expect(held.code).toBe(2);
      expect(held.stderr).toContain('is in use by a running server: stop it, then move.');
    });
  });
}
