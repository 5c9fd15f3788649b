import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, RequestScope } from '#server/db/driver.ts';
import { MIGRATION_LOCK_KEY, MigrationError, migrate } from '#server/db/migrate.ts';
import { openTestDatabase, testDatabase } from '#tests/support/test-server.ts';

let handle: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;
beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  await db.exec(`
    create table public.notes (id serial primary key, owner uuid not null, body text not null);
    alter table public.notes enable row level security;
    create policy notes_owner on public.notes for all to authenticated
      using (owner = auth.uid()) with check (owner = auth.uid());
    insert into public.notes (owner, body) values
      ('00000000-0000-0000-0000-00000000000a', 'a'), ('00000000-0000-0000-0000-00000000000b', 'b');
  `);
});
afterAll(() => handle?.close());

const userA = '00000000-0000-0000-0000-00000000000a';
const as = (role: RequestScope['role'], claims: Record<string, unknown> = {}): RequestScope => ({
  role,
  claims: { role, ...claims },
  headers: { 'x-forwarded-for': '203.0.113.7' },
  method: 'GET',
  path: '/rest/v1/notes',
});

describe('per-request scope', () => {
  it('runs as the role with the claims, as Supabase helpers read them', async () => {
    const row = await db.withScope(
      as('authenticated', { sub: userA, email: 'a@example.com' }),
      async (tx) =>
        (
          await tx.query<Record<string, unknown>>(
            `select current_user as role, auth.uid() as uid, auth.role() as auth_role, auth.email() as email,
                  auth.jwt() ->> 'sub' as sub, current_setting('request.headers', true)::json ->> 'x-forwarded-for' as ip,
                  current_setting('request.method', true) as method`,
          )
        ).rows[0],
    );
    expect(row).toEqual({
      role: 'authenticated',
      uid: userA,
      auth_role: 'authenticated',
      email: 'a@example.com',
      sub: userA,
      ip: '203.0.113.7',
      method: 'GET',
    });
  });

  it('lets row-level security decide', async () => {
    const count = (scope: RequestScope) =>
      db.withScope(
        scope,
        async (tx) => (await tx.query<{ body: string }>('select body from public.notes')).rows,
      );
    expect(await count(as('authenticated', { sub: userA }))).toEqual([{ body: 'a' }]);
    expect(await count(as('anon'))).toEqual([]);
    expect((await count(as('service_role'))).length).toBe(2);
    await expect(
      db.withScope(as('authenticated', { sub: userA }), (tx) =>
        tx.query(
          `insert into public.notes (owner, body) values ('00000000-0000-0000-0000-00000000000b', 'x')`,
        ),
      ),
    ).rejects.toMatchObject({ code: '42501' });
  });

  it('leaves nothing behind: the next statement runs as the superuser without claims', async () => {
    await db.withScope(as('anon'), (tx) => tx.query('select 1'));
    const { rows } = await db.query<{ user: string; claims: string | null }>(
      `select current_user as user, nullif(current_setting('request.jwt.claims', true), '') as claims`,
    );
    expect(rows[0]?.claims ?? null).toBeNull();
    expect(rows[0]?.user).not.toBe('anon');
  });

  it('rolls back everything when the work fails', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`insert into public.notes (owner, body) values ($1, 'doomed')`, [userA]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { rows } = await db.query(`select 1 from public.notes where body = 'doomed'`);
    expect(rows).toEqual([]);
  });

  it('returns the same JavaScript types on both drivers', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select 1::int4 as i, 9007199254740993::int8 as big, 1.50::numeric as n, true as b,
              '{"a":1}'::jsonb as j, '2026-01-02T03:04:05Z'::timestamptz as ts, '2026-01-02'::date as d,
              array[1,2]::int4[] as arr, null::text as nothing`,
    );
    expect(rows[0]).toMatchObject({
      i: 1,
      big: '9007199254740993',
      n: '1.50',
      b: true,
      j: { a: 1 },
      d: '2026-01-02',
      arr: [1, 2],
      nothing: null,
    });
    expect(typeof rows[0]?.ts).toBe('string');
  });

  it('takes every value as a parameter', async () => {
    const hostile = "'); drop table public.notes; --";
    const { rows } = await db.query<{ v: string }>('select $1::text as v', [hostile]);
    expect(rows[0]?.v).toBe(hostile);
    expect((await db.query('select count(*)::int as n from public.notes')).rows[0]).toEqual({ n: 2 });
  });
});

describe('migrations', () => {
  it('are idempotent: a second run applies nothing', async () => {
    expect(await migrate(db)).toEqual([]);
  });

  // A restart only reads what was applied: it neither waits for the lock nor runs DDL. (PostgreSQL
  // only: holding the lock needs a second session, and PGlite has one.)
  it.runIf(testDatabase() === 'postgres')(
    'with nothing to apply, do not wait for the migration lock',
    async () => {
      const result = await db.transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        return Promise.race([
          migrate(db),
          new Promise((resolve) => setTimeout(() => resolve('waited for the lock'), 3000)),
        ]);
      });
      expect(result).toEqual([]);
    },
  );

  async function sourceWith(files: Record<string, string>) {
    const dir = await mkdtemp(join(tmpdir(), 'hg-migrations-'));
    for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
    return { layer: `test/${dir}`, dir, naming: 'sequence' as const };
  }

  it('checks every applied file before applying a pending one', async () => {
    const source = await sourceWith({ '0001_first.sql': 'create table public.m4 (id int);' });
    expect(await migrate(db, { sources: [source] })).toHaveLength(1);
    await writeFile(join(source.dir, '0001_first.sql'), 'create table public.m4 (id bigint);');
    await writeFile(join(source.dir, '0002_second.sql'), 'create table public.m5 (id int);');
    await expect(migrate(db, { sources: [source] })).rejects.toThrow(/0001_first.sql was changed/);
    const tables = await db.query(`select 1 from information_schema.tables where table_name = 'm5'`);
    expect(tables.rows).toEqual([]);
  });

  it('refuses to continue when an applied migration changed', async () => {
    const source = await sourceWith({ '0001_first.sql': 'create table public.m1 (id int);' });
    expect(await migrate(db, { sources: [source] })).toHaveLength(1);
    await writeFile(join(source.dir, '0001_first.sql'), 'create table public.m1 (id bigint);');
    await expect(migrate(db, { sources: [source] })).rejects.toThrow(MigrationError);
    await expect(migrate(db, { sources: [source] })).rejects.toThrow(/was changed after it was applied/);
  });

  it('applies each file atomically: a failing migration leaves no trace', async () => {
    const source = await sourceWith({
      '0001_ok.sql': 'create table public.m2 (id int);',
      '0002_broken.sql': 'create table public.m3 (id int); select no_such_function();',
    });
    await expect(migrate(db, { sources: [source] })).rejects.toThrow(/0002_broken.sql failed/);
    const tables = await db.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_name in ('m2', 'm3') order by 1`,
    );
    expect(tables.rows).toEqual([{ name: 'm2' }]);
    const recorded = await db.query('select name from _platform.migrations where layer = $1', [source.layer]);
    expect(recorded.rows).toEqual([{ name: '0001_ok.sql' }]);
  });

  it('creates the platform roles and request helpers', async () => {
    const { rows } = await db.query<{ rolname: string; rolbypassrls: boolean }>(
      `select rolname, rolbypassrls from pg_roles where rolname in ('anon', 'authenticated', 'service_role') order by 1`,
    );
    expect(rows).toEqual([
      { rolname: 'anon', rolbypassrls: false },
      { rolname: 'authenticated', rolbypassrls: false },
      { rolname: 'service_role', rolbypassrls: true },
    ]);
  });
});

describe('LISTEN/NOTIFY', () => {
  const notified = (channel: string) =>
    new Promise<{ payloads: string[]; stop: () => Promise<void> }>((resolve) => {
      const payloads: string[] = [];
      db.listen(channel, (payload) => payloads.push(payload)).then((stop) => resolve({ payloads, stop }));
    });
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
    return check();
  };

  it('delivers committed notifications only', async () => {
    const { payloads, stop } = await notified('hg_test_events');
    await db
      .transaction(async (tx) => {
        await tx.query(`select pg_notify('hg_test_events', 'rolled back')`);
        throw new Error('undo');
      })
      .catch(() => {});
    await db.query(`select pg_notify('hg_test_events', 'committed')`);
    expect(await until(() => payloads.length > 0)).toBe(true);
    expect(payloads).toEqual(['committed']);
    await stop();
  });

  it.runIf(testDatabase() === 'postgres')('listens again after its connection is lost', async () => {
    const { payloads, stop } = await notified('hg_test_reconnect');
    const killed = await db.query<{ ok: boolean }>(
      `select pg_terminate_backend(pid) as ok from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen%'`,
    );
    expect(killed.rows.length).toBeGreaterThan(0);
    // Notify until the re-opened connection hears it.
    const heard = await until(() => {
      db.query(`select pg_notify('hg_test_reconnect', 'after')`).catch(() => {});
      return payloads.includes('after');
    });
    expect(heard).toBe(true);
    await stop();
  });
});
