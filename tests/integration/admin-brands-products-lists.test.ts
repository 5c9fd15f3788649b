// @databases: both — the lists' plans are PostgreSQL's, and both databases plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableReads, withOverpricedWord } from '#tests/support/plan-reads.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInAdmin, signedInUser } from '#tests/support/users.ts';

/**
 * The admins' brand list and product list (decision 260). `public.admin_find_brands` returns what a
 * direct read returns (live or archived brands, by name in any case, those whose name holds the text;
 * at most max_rows), whichever way it reads them; only admins may call it; the list reads its order's
 * index rather than sorting every brand, and a rare name the statistics price as common is not looked
 * for by reading every brand. `public.admin_find_products` (decision 262) likewise for every product,
 * archived ones included, newest first.
 */

let server: TestServer;
let admin: SignedInUser;
let member: SignedInUser;
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  admin = await signedInAdmin(server, { email: 'admin@brand-list.example' });
  member = await signedInUser(server, { email: 'member@brand-list.example' });
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
    insert into public.brands (id, name, slug) values
      (md5('brand qx1')::uuid, 'Qx Gardens', 'list-brand-qx1'), (md5('brand qx2')::uuid, 'QX 9 Supply', 'list-brand-qx2'),
      (md5('brand amp')::uuid, 'Salt & Pepper Co', 'list-brand-amp');
    insert into public.products (id, name, category, created_at, archived_at)
    select 'list-product-' || g, 'Listed Product ' || g, 'Flower',
      timestamptz '2026-10-01' + make_interval(mins => (g * 7919) % 40000),
      case when g % 7 = 0 then timestamptz '2026-11-01' end
    from generate_series(1, 13000) g;
    insert into public.products (id, name, category, created_at) values
      ('list-qx1', 'Qx Dream', 'Flower', timestamptz '2026-09-01'),
      ('list-qx7', 'QX 7 Special', 'Edibles', timestamptz '2026-09-02'),
      ('list-amp', 'Mac & Cheese', 'Edibles', timestamptz '2026-09-03');
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
    ['qx', false, 100],
    ['x 9', false, 100],
    ['#', false, 100],
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
        // Five pages' worth of the order walked first (500 brands), then the count: its one match.
        expect(search.reads).toBeGreaterThan(500);
        expect(search.reads).toBeLessThan(520);
      },
    );
  }, 120_000);

  it("counts a rare two-letter run through the names' short runs, not by walking the order", async () => {
    const search = await readsOf('public.brands', `select id from public.admin_find_brands('qx')`);
    expect(search.ids).toEqual(await expected('qx', false));
    expect(search.ids).toHaveLength(2);
    // Five pages' worth of the order walked first (500 brands), then the count: its two matches.
    expect(search.reads).toBeGreaterThan(500);
    expect(search.reads).toBeLessThan(520);
  });

  it("counts a rare search of no letter or digit through the names' marks, not by walking the order", async () => {
    const search = await readsOf('public.brands', `select id from public.admin_find_brands('&')`);
    expect(search.ids).toEqual(await expected('&', false));
    expect(search.ids).toHaveLength(1);
    // Five pages' worth of the order walked first (500 brands), then the count through
    // brands_name_marks_idx: its one match (decision 265).
    expect(search.reads).toBeGreaterThan(500);
    expect(search.reads).toBeLessThan(520);
  });

  it('finds a common name spread through the list within its first pages, without counting', async () => {
    // 12,000 names hold "brand", from the start of the name order: the first walk of the order finds
    // its 30 among the first few dozen brands, whatever the list's length.
    const search = await readsOf(
      'public.brands',
      `select id from public.admin_find_brands('brand', max_rows => 30)`,
    );
    expect(search.ids).toEqual(await expected('brand', false, 30));
    expect(search.reads).toBeGreaterThan(30);
    expect(search.reads).toBeLessThan(200);
  });

  it('sorts a common name gathered in one place of the order after bounded walks', async () => {
    // The 1,500 "Green Leaf Farms" come after every "brand …" by name: the first walk (500) and the one
    // after the count (twice the cap, √(100 × 13,540) ≈ 1,164) find none, and the matches are sorted
    // instead. About 500 + 1,165 + 2,330 + 1,500 rows, far from all 13,540.
    const search = await readsOf('public.brands', `select id from public.admin_find_brands('green leaf')`);
    expect(search.ids).toEqual(await expected('green leaf', false));
    expect(search.reads).toBeGreaterThan(1_500);
    expect(search.reads).toBeLessThan(7_000);
  });
});

/** What a direct read of every product returns (as the superuser). */
async function expectedProducts(text: string, rows = 200): Promise<string[]> {
  const pattern = `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const found = await sql<{ id: string }>(
    `select id from public.products where name ilike $1 order by created_at desc, id limit $2`,
    [pattern, rows],
  );
  return found.map((row) => row.id);
}

async function listedProducts(text: string, rows = 200): Promise<string[]> {
  const { data, error } = await admin.client
    .rpc('admin_find_products', { q: text, max_rows: rows })
    .select('id, archived_at');
  expect(error).toBeNull();
  return ((data ?? []) as { id: string }[]).map((row) => row.id);
}

describe(`the admins' product list (${testDatabase()})`, () => {
  it.each([
    ['', 200],
    ['', 5],
    ['listed product 1', 200],
    ['LISTED PRODUCT 12345', 200],
    ['qx', 200],
    ['Qx 7', 200],
    ['&', 200],
    [' & ', 5],
    ['12', 30],
    ['%', 200],
    ['no such product', 200],
  ])('lists %j (%s rows) as a direct read does, archived products included', async (text, rows) => {
    const want = await expectedProducts(text, rows);
    expect(await listedProducts(text, rows)).toEqual(want);
    if (text === '' || text === 'listed product 1' || text === '12') expect(want).toHaveLength(rows);
  });

  it('includes archived products', async () => {
    // Product 12,348 is archived (every seventh).
    expect(await listedProducts('Listed Product 12348')).toEqual(['list-product-12348']);
    const { data } = await admin.client
      .rpc('admin_find_products', { q: 'Listed Product 12348' })
      .select('archived_at');
    expect((data as { archived_at: string | null }[] | null)?.[0]?.archived_at).not.toBeNull();
  });

  it('refuses members and requests outside the box', async () => {
    const asMember = await member.client.rpc('admin_find_products', { q: 'listed' });
    expect(asMember.error?.code).toBe('42501');
    expect(asMember.error?.message).toBe('Only admins can list every product.');
    const long = await admin.client.rpc('admin_find_products', { q: 'x'.repeat(101) });
    expect(long.error?.message).toBe('Search for at most 100 characters.');
    for (const rows of [0, 1001]) {
      const many = await admin.client.rpc('admin_find_products', { max_rows: rows });
      expect(many.error?.code).toBe('22023');
      expect(many.error?.message).toBe('Ask for 1 to 1000 products.');
    }
  });

  it('finds a name many products hold within the first pages of the order, without counting', async () => {
    // Every product is "Listed Product …": the first walk fills the page of 200 from the newest 200.
    const search = await readsOf('public.products', `select id from public.admin_find_products('listed')`);
    expect(search.ids).toEqual(await expectedProducts('listed'));
    expect(search.reads).toBeGreaterThan(200);
    expect(search.reads).toBeLessThan(500);
  });

  it('reads the newest products by its index, not every product', async () => {
    const list = await readsOf('public.products', `select id from public.admin_find_products()`);
    expect(list.ids).toEqual(await expectedProducts(''));
    expect(list.reads).toBeGreaterThan(0);
    expect(list.reads).toBeLessThan(1_000);
  });

  it.each([
    ['a rare two-letter run', 'qx'],
    ['a rare search of no letter or digit', '&'],
  ])('counts %s through its index, not by reading every product', async (_, text) => {
    const search = await readsOf('public.products', `select id from public.admin_find_products('${text}')`);
    expect(search.ids).toEqual(await expectedProducts(text));
    // Five pages' worth of the order walked first (1,000 products, decision 263), then the count.
    expect(search.reads).toBeGreaterThan(0);
    expect(search.reads).toBeLessThan(1_050);
  });

  it('counts a rare name through its indexes, not by reading every product', async () => {
    const search = await readsOf(
      'public.products',
      `select id from public.admin_find_products('Listed Product 12345')`,
    );
    expect(search.ids).toEqual(['list-product-12345']);
    // The walk of 1,000, then the count. Through the keys of where its words meet (decision 270),
    // "ted pro" (in every name) and "uct 123" (the numbers 123, 1230–1239 and 12300–12399), the count
    // reads those 111 names: a few pages of rows, not every product.
    const [keyed] = await sql<{ n: number }>(
      `select count(*)::int as n from public.products where private.name_meetings(name) @> '{"ted pro","uct 123"}'`,
    );
    expect(keyed?.n).toBe(111);
    expect(search.reads).toBeGreaterThan(0);
    expect(search.reads).toBeLessThan(1_050 + 111);
  });
});
