// @databases: both — the storage schema, policies and helpers at SQL level.
/**
 * The storage schema at SQL level: the policy helpers behave as Supabase's, the name rules hold for
 * every path into the table (not only the API), row-level security is on with the product's policies
 * in their recommended form, the token bookkeeping is out of every API role's reach, and both storage
 * migrations can be applied again without change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#server/db/driver.ts';
import { readMigrations } from '#server/db/migrate.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import { anon, attempt, serviceRole, tryAs, user } from './schema-support.ts';

let handle: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
});
afterAll(() => handle?.close());

describe('the policy helpers', () => {
  it.each([
    ['a/b/c.png', ['a', 'b'], 'c.png', 'png'],
    ['c.png', [], 'c.png', 'png'],
    ['folder/archive.tar.gz', ['folder'], 'archive.tar.gz', 'gz'],
    ['noext', [], 'noext', 'noext'],
  ])('split %j as Supabase does', async (name, folders, file, extension) => {
    const { rows } = await db.query<{ f: string[]; n: string; e: string }>(
      'select storage.foldername($1) as f, storage.filename($1) as n, storage.extension($1) as e',
      [name],
    );
    expect(rows[0]).toEqual({ f: folders, n: file, e: extension });
  });
});

describe('the name rules in the table', () => {
  it.each(['../x', 'a/../x', './x', '/x', 'a//x', 'a/', `a/${'x'.repeat(256)}`, 'a\u0001b', 'a\nb', ''])(
    'refuse %j even from the service role',
    async (name) => {
      const result = await tryAs(
        db,
        serviceRole(),
        `insert into storage.objects (bucket_id, name, version) values ('user-uploads', $1, 'v')`,
        [name],
      );
      expect(result).toMatchObject({
        ok: false,
        error: { code: '23514', constraint: 'objects_name_format' },
      });
    },
  );

  it('accept 255 characters in a segment', async () => {
    const result = await tryAs(
      db,
      serviceRole(),
      `insert into storage.objects (bucket_id, name, version) values ('user-uploads', $1, 'v')`,
      [`a/${'x'.repeat(255)}`],
    );
    expect(result.ok).toBe(true);
  });

  it('refuse malformed bucket ids', async () => {
    for (const id of ['a/b', '', 'x'.repeat(101)]) {
      const result = await tryAs(
        db,
        serviceRole(),
        'insert into storage.buckets (id, name) values ($1, $1)',
        [id],
      );
      expect(result).toMatchObject({ ok: false, error: { code: '23514' } });
    }
  });
});

describe('row-level security', () => {
  it('is on for buckets and objects', async () => {
    const { rows } = await db.query<{ relname: string; relrowsecurity: boolean }>(
      `select relname, relrowsecurity from pg_class
       where relnamespace = 'storage'::regnamespace and relname in ('buckets', 'objects', 'upload_token_uses')
       order by relname`,
    );
    expect(rows.every((row) => row.relrowsecurity)).toBe(true);
    expect(rows).toHaveLength(3);
  });

  it('lets nobody but the service role create buckets', async () => {
    for (const scope of [anon(), user('0a000000-0000-4000-8000-0000000000aa')]) {
      const result = await tryAs(db, scope, `insert into storage.buckets (id, name) values ('mine', 'mine')`);
      expect(result).toMatchObject({ ok: false, error: { code: '42501' } });
    }
    expect(
      (await tryAs(db, serviceRole(), `insert into storage.buckets (id, name) values ('mine', 'mine')`)).ok,
    ).toBe(true);
  });

  it('product policies call auth.uid() and has_role() once per statement', async () => {
    const { rows } = await db.query<{ policy: string; expr: string }>(
      `select policyname as policy, coalesce(qual, '') || ' ' || coalesce(with_check, '') as expr
       from pg_policies where schemaname = 'storage'`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(11);
    const bare = rows.filter((row) => {
      const unwrapped = row.expr
        .replaceAll('( SELECT auth.uid() AS uid)', '')
        .replace(/\( SELECT has_role\('admin'::text\) AS has_role\)/g, '');
      return /auth\.uid\(\)|has_role\(/.test(unwrapped);
    });
    expect(bare).toEqual([]);
  });
});

describe('signed upload token bookkeeping', () => {
  it('is consumed once, and is not readable or writable by any API role', async () => {
    const tokenId = '0c000000-0000-4000-8000-000000000001';
    const expires = new Date(Date.now() + 60_000).toISOString();
    const consume = (scope: ReturnType<typeof anon>) =>
      attempt(db, scope, async (tx) => {
        const first = await tx.query<{ ok: boolean }>('select storage.consume_upload_token($1, $2) as ok', [
          tokenId,
          expires,
        ]);
        const second = await tx.query<{ ok: boolean }>('select storage.consume_upload_token($1, $2) as ok', [
          tokenId,
          expires,
        ]);
        const used = await tx.query<{ used: boolean }>('select storage.upload_token_used($1) as used', [
          tokenId,
        ]);
        return [first.rows[0]?.ok, second.rows[0]?.ok, used.rows[0]?.used];
      });
    for (const scope of [anon(), user('0a000000-0000-4000-8000-0000000000aa'), serviceRole()]) {
      expect(await consume(scope)).toEqual({ ok: true, value: [true, false, true] });
      for (const sql of [
        'select * from storage.upload_token_uses',
        `insert into storage.upload_token_uses (token_id, expires_at) values (gen_random_uuid(), now())`,
        'delete from storage.upload_token_uses',
      ]) {
        expect(await tryAs(db, scope, sql)).toMatchObject({ ok: false, error: { code: '42501' } });
      }
    }
  });
});

describe('the storage migrations', () => {
  it('can be applied again without error or change', async () => {
    const snapshot = async () =>
      (
        await db.query(
          `select (select count(*)::int from pg_policies where schemaname = 'storage') as policies,
                  (select count(*)::int from pg_proc where pronamespace = 'storage'::regnamespace) as functions,
                  (select count(*)::int from pg_indexes where schemaname = 'storage') as indexes,
                  (select count(*)::int from pg_constraint where connamespace = 'storage'::regnamespace) as constraints,
                  (select count(*)::int from pg_trigger t join pg_class c on c.oid = t.tgrelid
                     where c.relnamespace = 'storage'::regnamespace and not t.tgisinternal) as triggers,
                  (select jsonb_agg(to_jsonb(b) - 'created_at' - 'updated_at' order by id) from storage.buckets b) as buckets`,
        )
      ).rows[0];
    const before = await snapshot();
    const files = (await readMigrations()).filter(
      (file) => file.layer === 'platform/storage' || file.name.includes('storage'),
    );
    expect(files.map((file) => file.name)).toEqual([
      '0001_storage_schema.sql',
      '0002_blob_trash.sql',
      '0003_signed_url_cap.sql',
      '20261122100000_storage_buckets.sql',
      '20261122300000_storage_writes_need_an_account.sql',
    ]);
    for (const file of files) await db.transaction((tx) => tx.exec(file.sql));
    expect(await snapshot()).toEqual(before);
  });
});
