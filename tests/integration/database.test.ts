// @databases: both — the driver and the migration runner themselves.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountGoneError, type Database, type Queryable, type RequestScope } from '#server/db/driver.ts';
import {
  checksum,
  MIGRATION_LOCK_KEY,
  MigrationError,
  type MigrationSource,
  migrate,
  readMigrations,
} from '#server/db/migrate.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { createPostgresDatabase, openTestDatabase, testDatabase } from '#tests/support/test-server.ts';

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

  it('carries hostile header, path and claim values exactly, whatever quotes and backslashes they hold', async () => {
    const hostile = `'); drop table public.notes; -- \\' \\\\ " $1 $$ \u00e9 \u{1F600}`;
    const row = await db.withScope(
      {
        role: 'authenticated',
        claims: { role: 'authenticated', sub: userA, email: hostile },
        headers: { 'x-forwarded-for': '203.0.113.7', 'user-agent': hostile },
        method: 'GET',
        path: `/rest/v1/notes?q=${hostile}`,
      },
      async (tx) =>
        (
          await tx.query<Record<string, unknown>>(
            `select auth.email() as email, current_setting('request.headers', true)::json ->> 'user-agent' as agent,
                    current_setting('request.path', true) as path, current_user as role`,
          )
        ).rows[0],
    );
    expect(row).toEqual({
      email: hostile,
      agent: hostile,
      path: `/rest/v1/notes?q=${hostile}`,
      role: 'authenticated',
    });
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.notes');
    expect(rows[0]?.n).toBe(2);
  });

  it('refuses a scope holding a NUL with an error, and the next request works', async () => {
    await expect(
      db.withScope({ ...as('anon'), path: '/rest/v1/notes\u0000x' }, (tx) => tx.query('select 1')),
    ).rejects.toThrow();
    const rows = await db.withScope(as('anon'), async (tx) => (await tx.query('select 1 as one')).rows);
    expect(rows).toEqual([{ one: 1 }]);
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

  it("checks a signed-in scope's account before any of its work runs (decision 097)", async () => {
    const gone = '00000000-0000-4000-8000-0000000000ee';
    const kept = '00000000-0000-4000-8000-0000000000ef';
    await db.query(
      `insert into auth.users (id, email, aud, role) values ($1, 'kept@example.test', 'authenticated', 'authenticated')`,
      [kept],
    );
    const write = (sub: string) => ({
      ...as('authenticated', { sub }),
      method: 'POST',
      requireAccount: true,
    });
    const insert = (tx: Queryable, owner: string, body: string) =>
      tx.query(`insert into public.notes (owner, body) values ($1, $2)`, [owner, body]);

    // An account that exists: the work runs and commits.
    await db.withScope(write(kept), (tx) => insert(tx, kept, 'kept'));
    // A rollback would undo the rows anyway; what shows whether a statement ran is what no rollback
    // undoes, such as the sequence of the table's ids.
    const lastId = async () =>
      (await db.query<{ last_value: string }>('select last_value::text from public.notes_id_seq')).rows[0]
        ?.last_value;
    const before = await lastId();
    // One that is gone: refused before any of the work runs, also work that goes on after its first
    // statement failed.
    await expect(db.withScope(write(gone), (tx) => insert(tx, gone, 'gone'))).rejects.toBeInstanceOf(
      AccountGoneError,
    );
    await expect(
      db.withScope(write(gone), async (tx) => {
        await insert(tx, gone, 'first').catch(() => {});
        await insert(tx, gone, 'second');
      }),
    ).rejects.toBeInstanceOf(AccountGoneError);
    await expect(
      db.withScope({ ...write(gone), readOnly: true }, (tx) => tx.query('select 1')),
    ).rejects.toBeInstanceOf(AccountGoneError);
    const { rows } = await db.query<{ body: string }>(
      'select body from public.notes where owner = any($1::uuid[]) order by body',
      [[kept, gone]],
    );
    expect(rows.map((row) => row.body)).toEqual(['kept']);
    expect(await lastId()).toBe(before);
    // The connection is clean afterwards.
    expect((await db.withScope(write(kept), (tx) => tx.query<{ n: number }>('select 1 as n'))).rows).toEqual([
      { n: 1 },
    ]);
    await db.query('delete from public.notes where owner = $1', [kept]);
    await db.query('delete from auth.users where id = $1', [kept]);
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

  async function sourceWith(
    files: Record<string, string>,
    definitions?: Record<string, string>,
  ): Promise<MigrationSource & { definitions: string }> {
    const dir = await mkdtemp(join(tmpdir(), 'hg-migrations-'));
    for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
    const definitionsDir = join(dir, 'definitions');
    await mkdir(definitionsDir);
    for (const [name, sql] of Object.entries(definitions ?? {}))
      await writeFile(join(definitionsDir, name), sql);
    return { layer: `test/${dir}`, dir, naming: 'sequence', definitions: definitionsDir };
  }

  /** The database with every statement it is sent counted. */
  function counting(target: Database): { db: Database; statements: string[] } {
    const statements: string[] = [];
    const db: Database = {
      mode: target.mode,
      query: (sql, params) => {
        statements.push(sql);
        return target.query(sql, params);
      },
      exec: (sql) => {
        statements.push(sql);
        return target.exec(sql);
      },
      transaction: (fn) => {
        statements.push('begin');
        return target.transaction(fn);
      },
      withScope: (scope, fn) => {
        statements.push('begin (scoped)');
        return target.withScope(scope, fn);
      },
      listen: (channel, handler) => target.listen(channel, handler),
      onListenerReset: (handler) => target.onListenerReset(handler),
      get listening() {
        return target.listening;
      },
      get restarts() {
        return target.restarts;
      },
      ping: () => target.ping(),
      get activity() {
        return target.activity;
      },
      close: () => target.close(),
    };
    return { db, statements };
  }

  it('on a restart with nothing changed, send one query: no lock, no DDL, no transaction', async () => {
    const { db: counted, statements } = counting(db);
    expect(await migrate(counted)).toEqual([]);
    expect(statements).toEqual(['select layer, name, checksum from _platform.migrations']);
  });

  it('apply definitions after the migrations, and again whenever they change', async () => {
    const source = await sourceWith(
      { '0001_table.sql': 'create table public.d1 (id int primary key, n int not null);' },
      {
        'd1_count.sql':
          'create or replace function public.d1_count() returns bigint language sql as $$ select count(*) from public.d1 $$;',
      },
    );
    const applied = await migrate(db, { sources: [source] });
    expect(applied).toHaveLength(2);
    expect(applied[0]).toMatch(/\/0001_table\.sql$/);
    expect(applied[1]).toMatch(/\/definitions\/d1_count\.sql$/);
    expect(await migrate(db, { sources: [source] })).toEqual([]);

    const changed =
      'create or replace function public.d1_count() returns bigint language sql as $$ select count(*) + 10 from public.d1 $$;';
    await writeFile(join(source.definitions, 'd1_count.sql'), changed);
    const reapplied = await migrate(db, { sources: [source] });
    expect(reapplied).toHaveLength(1);
    expect(reapplied[0]).toMatch(/definitions\/d1_count\.sql$/);
    expect((await db.query<{ n: string }>('select public.d1_count() as n')).rows).toEqual([{ n: '10' }]);
    const recorded = await db.query<{ name: string; checksum: string }>(
      'select name, checksum from _platform.migrations where layer = $1 order by name',
      [source.layer],
    );
    expect(recorded.rows).toEqual([
      {
        name: '0001_table.sql',
        checksum: checksum('create table public.d1 (id int primary key, n int not null);'),
      },
      { name: 'definitions/d1_count.sql', checksum: checksum(changed) },
    ]);
    expect(await migrate(db, { sources: [source] })).toEqual([]);
  });

  it('stop at a definition that fails, naming it, and keep the version applied before', async () => {
    const first = 'create or replace function public.d2() returns int language sql as $$ select 1 $$;';
    const source = await sourceWith({}, { 'd2.sql': first });
    expect(await migrate(db, { sources: [source] })).toHaveLength(1);
    await writeFile(
      join(source.definitions, 'd2.sql'),
      'create or replace function public.d2() returns int language sql as $$ select 2 $$;\nselect no_such_function();',
    );
    const failure = migrate(db, { sources: [source] });
    await expect(failure).rejects.toThrow(MigrationError);
    await expect(migrate(db, { sources: [source] })).rejects.toThrow(
      /^Definition \S+definitions\/d2\.sql failed: function no_such_function\(\) does not exist$/,
    );
    expect((await db.query('select public.d2() as n')).rows).toEqual([{ n: 1 }]);
    const recorded = await db.query('select checksum from _platform.migrations where layer = $1', [
      source.layer,
    ]);
    expect(recorded.rows).toEqual([{ checksum: checksum(first) }]);
  });

  it('accept the earlier contents a migration declares it replaces, and no other', async () => {
    const original =
      'create table public.r1 (id int);\ncreate function public.r1_f() returns int language sql as $$ select 1 $$;';
    const source = await sourceWith({ '0001_first.sql': original });
    expect(await migrate(db, { sources: [source] })).toHaveLength(1);
    // The function moves to a definition; the migration keeps its table and names what it was.
    await writeFile(
      join(source.dir, '0001_first.sql'),
      `-- replaces sha256 ${checksum(original)}\ncreate table public.r1 (id int);`,
    );
    await writeFile(
      join(source.definitions, 'r1_f.sql'),
      'create or replace function public.r1_f() returns int language sql as $$ select 1 $$;',
    );
    const applied = await migrate(db, { sources: [source] });
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatch(/definitions\/r1_f\.sql$/);
    expect(await migrate(db, { sources: [source] })).toEqual([]);

    await writeFile(
      join(source.dir, '0001_first.sql'),
      `-- replaces sha256 ${'0'.repeat(64)}\ncreate table public.r1 (id int);`,
    );
    await expect(migrate(db, { sources: [source] })).rejects.toThrow(
      /0001_first.sql was changed after it was applied/,
    );
  });

  it('have definitions that can be applied again without error or change (decision 089)', async () => {
    const snapshot = async () =>
      (
        await db.query(
          `select (select jsonb_agg(jsonb_build_array(p.oid::regprocedure::text, pg_get_functiondef(p.oid),
                     p.proacl::text) order by p.oid::regprocedure::text)
                   from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                   where n.nspname not in ('pg_catalog', 'information_schema') and p.prokind in ('f', 'p')) as functions,
                  (select jsonb_agg(jsonb_build_array(tgrelid::regclass::text, tgname, tgfoid::regprocedure::text) order by tgrelid::regclass::text, tgname)
                   from pg_trigger where not tgisinternal) as triggers,
                  (select jsonb_agg(jsonb_build_array(evtname, evtfoid::regprocedure::text) order by evtname)
                   from pg_event_trigger) as event_triggers,
                  (select jsonb_agg(jsonb_build_array(schemaname, tablename, policyname, qual, with_check)
                     order by schemaname, tablename, policyname)
                   from pg_policies) as policies`,
        )
      ).rows[0];
    const definitions = (await readMigrations()).filter((file) => file.kind === 'definition');
    expect(definitions.length).toBeGreaterThan(0);
    const before = await snapshot();
    for (const file of definitions) await db.transaction((tx) => tx.exec(file.sql));
    expect(await snapshot()).toEqual(before);
  });

  // Two servers starting together on one PostgreSQL database (PGlite has one connection).
  it.runIf(testDatabase() === 'postgres')(
    'apply each file once when two servers migrate one database at the same time',
    async () => {
      const database = await createPostgresDatabase();
      const servers = await Promise.all([1, 2].map(() => openPostgres({ url: database.url, poolMax: 2 })));
      try {
        const [a, b] = servers as [Database, Database];
        const files = await readMigrations();
        const first = await Promise.all([migrate(a), migrate(b)]);
        // Each file applied by one of the two, and the other found it applied.
        expect(first.flat()).toHaveLength(files.length);
        expect(new Set(first.flat()).size).toBe(files.length);
        expect((await a.query('select count(*)::int as n from _platform.migrations')).rows).toEqual([
          { n: files.length },
        ]);

        const source = await sourceWith(
          {},
          { 'c1.sql': 'create or replace function public.c1() returns int language sql as $$ select 1 $$;' },
        );
        expect(
          (await Promise.all([migrate(a, { sources: [source] }), migrate(b, { sources: [source] })])).flat(),
        ).toHaveLength(1);
        await writeFile(
          join(source.definitions, 'c1.sql'),
          'create or replace function public.c1() returns int language sql as $$ select 2 $$;',
        );
        const again = await Promise.all([
          migrate(a, { sources: [source] }),
          migrate(b, { sources: [source] }),
        ]);
        expect(again.flat()).toHaveLength(1);
        expect((await b.query('select public.c1() as n')).rows).toEqual([{ n: 2 }]);
      } finally {
        await Promise.all(servers.map((server) => server.close()));
        await database.drop();
      }
    },
  );

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
