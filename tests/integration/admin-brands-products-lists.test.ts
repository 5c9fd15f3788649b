// @databases: both — the lists' plans are PostgreSQL's, and both databases plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#tests/support/clients.ts';
import { tableReads, withOverpricedWord } from '#tests/support/plan-reads.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

/**
 * The admins' brand list and product list (decision 260). `public.admin_find_brands` returns what a
 * direct read returns (live or archived brands, by name in any case, those whose name holds the text;
 * at most max_rows), whichever way it reads them; only admins may call it; the list reads its order's
 * index rather than sorting every brand, and a rare name the statistics price as common is not looked
 * for by reading every brand. /admin/products (every product, newest first) reads its order's index.
 */

let server: TestServer;
let admin: SignedInUser;
let member: SignedInUser;
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  admin = await signedInUser(server, { email: 'admin@brand-list.example' });
  member = await signedInUser(server, { email: 'member@brand-list.example' });
  const granted = await adminClient(server).from('user_roles').insert({ user_id: admin.id, role: 'admin' });
  if (granted.error) throw new Error(granted.error.message);
  // 13,540 brands: 1,500 "Green Leaf Farms" (more than the search's cap, so read in name order), 40
  // "Ohio Grower" (fewer: sorted), the rest with names no two share, in mixed case; every tenth
  // archived. 13,000 products, every seventh archived.
  await server.db.exec(`
    set session_replication_role = replica;
    insert into public.brands (id, name, slug, archived_at)
    select md5('brand' || g)::uuid,
      case when g <= 1500 then 'Green Leaf Farms ' || g
           when g <= 1540 then 'Ohio Grower ' || g
           when g % 2 = 0 then 'brand ' || md5('brand' || g)
           else 'Brand ' || md5('brand' || g) end,
      'list-brand-' || g,
      case when g % 10 = 0 then timestamptz '2026-11-01' end
    from generate_series(1, 13540) g;
    insert into public.products (id, name, category, created_at, archived_at)
    select 'list-product-' || g, 'Listed Product ' || g, 'Flower',
      timestamptz '2026-10-01' + make_interval(mins => (g * 7919) % 40000),
      case when g % 7 = 0 then timestamptz '2026-11-01' end
    from generate_series(1, 13000) g;
    set session_replication_role = origin;
    analyze public.brands;
    analyze public.products;`);
}, 120_000);
afterAll(() => server?.close());

/** What a direct read of the table returns (as the superuser). */
async function expected(text: string, archived: boolean, rows = 100): Promise<string[]> {
  const pattern = `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const found = await sql<{ id: string }>(
    `select id from public.brands
     where (archived_at is not null) = $2 and name ilike $1
     order by lower(name), id limit $3`,
    [pattern, archived, rows],
  );
  return found.map((row) => row.id);
}

async function listed(text: string, archived: boolean, rows = 100): Promise<string[]> {
  const { data, error } = await admin.client
    .rpc('admin_find_brands', { q: text, archived, max_rows: rows })
    .select('id, shown_verification');
  expect(error).toBeNull();
  return ((data ?? []) as { id: string }[]).map((row) => row.id);
}

const asAdmin = () => ({ role: 'authenticated', claims: { sub: admin.id, role: 'authenticated' } }) as const;

/** How many rows of `table` a statement reads, run as the admin. */
async function readsOf(table: string, statement: string): Promise<{ reads: number; ids: string[] }> {
  const { reads, rows } = await tableReads<{ id: string }>(server, table, asAdmin(), statement);
  return { reads, ids: rows.map((row) => row.id) };
}

describe(`the admins' brand list (${testDatabase()})`, () => {
  it.each([
    ['', false, 100],
    ['', true, 100],
    ['', false, 7],
    ['green leaf', false, 100],
    ['GREEN LEAF FARMS 1', true, 100],
    ['ohio grower', false, 100],
    ['Ohio Grower 1520', true, 100],
    ['brand', false, 30],
    ['gl', false, 100],
    ['zq', false, 100],
    ['no such brand', false, 100],
  ])('lists %j (archived: %s, %s rows) as a direct read does', async (text, archived, rows) => {
    const want = await expected(text, archived, rows);
    expect(await listed(text, archived, rows)).toEqual(want);
    if (text === '' || text === 'green leaf' || text === 'brand') expect(want).toHaveLength(rows);
  });

  it('gives each brand every column the admin screen reads, its shown verification too', async () => {
    const { data, error } = await admin.client
      .rpc('admin_find_brands', { q: 'Ohio Grower 1521' })
      .select('id, name, slug, archived_at, verification, shown_verification');
    expect(error).toBeNull();
    expect(data).toEqual([
      expect.objectContaining({ name: 'Ohio Grower 1521', slug: 'list-brand-1521', archived_at: null }),
    ]);
    expect(typeof (data as { shown_verification: unknown }[] | null)?.[0]?.shown_verification).toBe('string');
  });

  it('treats % _ and \\ as the characters typed', async () => {
    expect(await listed('farms %', false)).toEqual([]);
    expect(await listed('green_leaf', false)).toEqual([]);
  });

  it('refuses members and requests outside the box', async () => {
    const asMember = await member.client.rpc('admin_find_brands', { q: 'green' });
    expect(asMember.error?.code).toBe('42501');
    expect(asMember.error?.message).toBe('Only admins can list every brand.');
    const long = await admin.client.rpc('admin_find_brands', { q: 'x'.repeat(101) });
    expect(long.error?.code).toBe('22023');
    expect(long.error?.message).toBe('Search for at most 100 characters.');
    for (const rows of [0, 1001]) {
      const many = await admin.client.rpc('admin_find_brands', { max_rows: rows });
      expect(many.error?.code).toBe('22023');
      expect(many.error?.message).toBe('Ask for 1 to 1000 brands.');
    }
  });

  it('reads the first page of the list by its index, not every brand', async () => {
    // The premise: the data API's read (`order=name`) sorted every live brand.
    const plain = await readsOf(
      'public.brands',
      `select id from public.brands where archived_at is null order by name limit 100`,
    );
    expect(plain.reads).toBeGreaterThan(10_000);
    const list = await readsOf('public.brands', `select id from public.admin_find_brands()`);
    expect(list.ids).toEqual(await expected('', false));
    // The page through the index, then the page by id.
    expect(list.reads).toBeGreaterThan(0);
    expect(list.reads).toBeLessThan(400);
  });

  it('does not read every brand for a rare name the statistics price as common', async () => {
    // Statistics taken while the unique names all ended in "zebra", then every one but one changed back.
    const keep = (await sql<{ id: string }>(`select md5('brand' || 2001)::uuid::text as id`))[0]?.id ?? '';
    await withOverpricedWord(
      server,
      {
        table: 'public.brands',
        column: 'name',
        where: `slug like 'list-brand-%' and name ilike 'brand %'`,
        keep,
      },
      async () => {
        const want = await expected('zebra', false);
        expect(want).toEqual([keep]);
        const search = await readsOf('public.brands', `select id from public.admin_find_brands('zebra')`);
        expect(search.ids).toEqual(want);
        expect(search.reads).toBeGreaterThan(0);
        expect(search.reads).toBeLessThan(20);
      },
    );
  }, 120_000);

  it('reads a common name spread through the list in name order, stopping within a few pages', async () => {
    // 12,000 names hold "brand", from the start of the name order: up to the cap (√(100 × 13,540) ≈
    // 1,164) counted through the bitmap, then a short walk of the order, then the page.
    const search = await readsOf('public.brands', `select id from public.admin_find_brands('brand')`);
    expect(search.ids).toEqual(await expected('brand', false));
    expect(search.reads).toBeGreaterThan(1_000);
    expect(search.reads).toBeLessThan(1_600);
  });

  it('sorts a common name gathered in one place of the order after a bounded walk', async () => {
    // The 1,500 "Green Leaf Farms" come after every "brand …" by name: the walk (twice the cap) finds
    // none, and the matches are sorted instead. About 1,165 + 2,330 + 1,500 rows, far from all 13,540.
    const search = await readsOf('public.brands', `select id from public.admin_find_brands('green leaf')`);
    expect(search.ids).toEqual(await expected('green leaf', false));
    expect(search.reads).toBeGreaterThan(1_500);
    expect(search.reads).toBeLessThan(6_000);
  });
});

describe(`the admins' product list (${testDatabase()})`, () => {
  it('reads the newest products, archived ones included, by its index, not every product', async () => {
    const want = (
      await sql<{ id: string }>(`select id from public.products order by created_at desc, id limit 200`)
    ).map((row) => row.id);
    const { data, error } = await admin.client
      .from('products')
      .select('id, archived_at')
      .order('created_at', { ascending: false })
      .limit(200);
    expect(error).toBeNull();
    expect((data ?? []).map((row) => row.id).sort()).toEqual([...want].sort());
    expect((data ?? []).some((row) => row.archived_at !== null)).toBe(true);
    const list = await readsOf(
      'public.products',
      `select id from public.products order by created_at desc limit 200`,
    );
    expect(list.reads).toBeGreaterThan(0);
    expect(list.reads).toBeLessThan(1_000);
  });
});
