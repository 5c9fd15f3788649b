// @databases: both — the search's plans are PostgreSQL's, and both databases plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '#tests/support/clients.ts';
import { tableReads, withOverpricedWord } from '#tests/support/plan-reads.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';

/**
 * Pass or Gas's name search (decision 256): `public.search_products` returns what the list's own
 * filter on `product_rankings` returns, in the list's order, whichever of its three ways it takes
 * (few matches sorted, many matches read down the order's index, a search too short for trigrams
 * counted through the names' one- and two-character runs, decision 261, and one of no letter or digit
 * through their other characters, decision 265),
 * and its plan does not rest on the name's statistics: a rare word those statistics price as common
 * is not looked for by walking the Top order.
 */

let server: TestServer;
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

/** The list's page (web/src/features/pass-or-gas/api/get-products.ts) and some of its columns. */
const PAGE_SIZE = 24;
const PRODUCT_COLUMNS =
  'id, name, brand_slug, category, strain_type, gas, pass, counted, wilson, trend_key, created_at';
const BRAND = '00000000-0000-4000-8000-00000000b256';

beforeAll(async () => {
  server = await startTestServer();
  // 12,000 products with names no two share, 1,500 "Kush" products (more than the search's cap, so
  // they are read down the order), 40 "Haze" products (fewer: sorted), and names with % _ and \.
  // Tallies, categories, strains and one brand vary so every order and filter has work to do.
  await server.db.exec(`
    insert into public.brands (id, name, slug) values ('${BRAND}', 'Search Test Farms', 'search-test-farms');
    insert into public.products (id, name, category, strain_type, brand_id, created_at)
    select 'search-' || g,
      case when g <= 1500 then 'Kush ' || md5('kush' || g)
           when g <= 1540 then 'Purple Haze ' || g
           else 'Strain ' || md5('search' || g) end,
      (array['Flower', 'Edibles', 'Concentrates'])[1 + g % 3],
      (array['indica', 'sativa', 'hybrid', 'n/a'])[1 + g % 4],
      case when g % 5 = 0 then '${BRAND}'::uuid end,
      timestamptz '2026-11-01' + make_interval(mins => (g * 7919) % 20000)
    from generate_series(1, 13500) g;
    insert into public.products (id, name, category) values
      ('search-pct', '100% Pure Kush', 'Flower'), ('search-under', 'Pure_Kush Reserve', 'Flower'),
      ('search-slash', 'Back\\Slash Kush', 'Flower'), ('search-plain', '1000 Pure Kush', 'Flower'),
      ('search-qx1', 'Qx Dream', 'Flower'), ('search-qx2', 'QX Dream Two', 'Edibles'),
      ('search-qx7', 'Qx 7 Special', 'Flower'), ('search-amp', 'Mac & Cheese', 'Edibles'),
      ('search-mush', 'Mushroom 🍄 Bar', 'Edibles');
    update public.product_tallies t
    set gas = ('x' || substr(md5(t.product_id), 1, 4))::bit(16)::int % 40,
        pass = ('x' || substr(md5(t.product_id), 5, 4))::bit(16)::int % 40,
        trend = (('x' || substr(md5(t.product_id), 9, 4))::bit(16)::int % 1000)::double precision / 10
    where t.product_id like 'search-%';
    analyze public.products;
    analyze public.product_tallies;`);
}, 120_000);
afterAll(() => server?.close());

type Sort = 'top' | 'trending' | 'new';
const ORDER: Record<Sort, string> = {
  top: 'wilson desc, counted desc, id',
  trending: 'trend_key desc, id',
  new: 'created_at desc, id',
};

interface Search {
  q: string;
  sort: Sort;
  category?: string;
  brand_slug?: string;
  strain_type?: string;
  max_rows: number;
}

/** What the list's own filter on the view returns: the statement the page sent before decision 256. */
async function expected(search: Search): Promise<string[]> {
  const pattern = `%${search.q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await sql<{ id: string }>(
    `select id from public.product_rankings
     where name ilike $1 and ($2::text is null or category = $2) and ($3::text is null or brand_slug = $3)
       and ($4::text is null or strain_type = $4)
     order by ${ORDER[search.sort]} limit $5`,
    [
      pattern,
      search.category ?? null,
      search.brand_slug ?? null,
      search.strain_type ?? null,
      search.max_rows,
    ],
  );
  return rows.map((row) => row.id);
}

/** The search as the page asks it, through supabase-js and the data API. */
async function searched(search: Search): Promise<string[]> {
  const { data, error } = await anonClient(server)
    .rpc('search_products', {
      q: search.q,
      sort: search.sort,
      category: search.category ?? null,
      brand_slug: search.brand_slug ?? null,
      strain_type: search.strain_type ?? null,
      max_rows: search.max_rows,
    })
    .select(PRODUCT_COLUMNS);
  expect(error).toBeNull();
  return ((data ?? []) as { id: string }[]).map((row) => row.id);
}

const ANON = { role: 'anon', claims: { role: 'anon' } } as const;
/** How many products a statement reads as a visitor (walking the Top order reads one per tally). */
const productReads = (statement: string, params: unknown[]) =>
  tableReads<{ id: string }>(server, 'public.products', ANON, statement, params);

const TOP_PAGE = `select id from public.product_rankings where name ilike $1
  order by wilson desc, counted desc, id limit ${PAGE_SIZE + 1}`;
const SEARCH_TOP_PAGE = `select id from public.search_products($1, 'top', max_rows => ${PAGE_SIZE + 1})`;
const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

describe(`Pass or Gas name search (${testDatabase()})`, () => {
  it.each<Search>([
    { q: 'haze', sort: 'top', max_rows: PAGE_SIZE + 1 },
    { q: 'Purple Haze 1', sort: 'trending', max_rows: PAGE_SIZE + 1 },
    { q: 'haze', sort: 'new', category: 'Flower', max_rows: 2 * PAGE_SIZE + 1 },
    { q: 'kush', sort: 'top', max_rows: PAGE_SIZE + 1 },
    { q: 'kush', sort: 'trending', max_rows: 3 * PAGE_SIZE + 1 },
    { q: 'kush', sort: 'new', max_rows: PAGE_SIZE + 1 },
    { q: 'KUSH', sort: 'top', category: 'Edibles', strain_type: 'hybrid', max_rows: PAGE_SIZE + 1 },
    { q: 'kush', sort: 'new', brand_slug: 'search-test-farms', max_rows: PAGE_SIZE + 1 },
    { q: 'ku', sort: 'top', max_rows: PAGE_SIZE + 1 },
    { q: 'a', sort: 'new', strain_type: 'indica', max_rows: PAGE_SIZE + 1 },
    { q: 'qx', sort: 'top', max_rows: PAGE_SIZE + 1 },
    { q: 'QX 7', sort: 'new', max_rows: PAGE_SIZE + 1 },
    { q: 'x d', sort: 'trending', max_rows: PAGE_SIZE + 1 },
    { q: 'qx', sort: 'top', category: 'Edibles', max_rows: PAGE_SIZE + 1 },
    { q: '7', sort: 'trending', max_rows: 3 * PAGE_SIZE + 1 },
    { q: 'zq', sort: 'top', max_rows: PAGE_SIZE + 1 },
    { q: '%', sort: 'top', max_rows: PAGE_SIZE + 1 },
    { q: ' # ', sort: 'new', max_rows: PAGE_SIZE + 1 },
    { q: '&', sort: 'top', max_rows: PAGE_SIZE + 1 },
    { q: '& ch', sort: 'new', max_rows: PAGE_SIZE + 1 },
    { q: '🍄', sort: 'trending', max_rows: PAGE_SIZE + 1 },
    { q: '100%', sort: 'top', max_rows: PAGE_SIZE + 1 },
    { q: 'pure_kush', sort: 'top', max_rows: PAGE_SIZE + 1 },
    { q: 'back\\slash', sort: 'top', max_rows: PAGE_SIZE + 1 },
    { q: '  nothing-has-this-name  ', sort: 'trending', max_rows: PAGE_SIZE + 1 },
  ])('finds what the list filter finds, in its order: $q by $sort', async (search) => {
    const want = await expected(search);
    expect(await searched(search)).toEqual(want);
    if (search.q === 'kush' && !search.brand_slug) expect(want).toHaveLength(search.max_rows);
  });

  it('treats % _ and \\ as the characters typed', async () => {
    expect(await searched({ q: '100%', sort: 'top', max_rows: 10 })).toEqual(['search-pct']);
    expect(await searched({ q: 'pure_kush', sort: 'top', max_rows: 10 })).toEqual(['search-under']);
    expect(await searched({ q: 'back\\slash', sort: 'top', max_rows: 10 })).toEqual(['search-slash']);
  });

  it.each([
    [{ q: '   ' }, 'Type a name to search for.'],
    [{ q: 'x'.repeat(101) }, 'Search for at most 100 characters.'],
    [{ q: 'kush', sort: 'best' }, 'Sort by top, trending or new.'],
    [{ q: 'kush', max_rows: 0 }, 'Ask for 1 to 10000 products.'],
    [{ q: 'kush', max_rows: 10001 }, 'Ask for 1 to 10000 products.'],
  ])('refuses %j with a clear message', async (args, message) => {
    const { data, error } = await anonClient(server).rpc('search_products', args).select('id');
    expect(data).toBeNull();
    expect(error?.code).toBe('22023');
    expect(error?.message).toBe(message);
  });

  it('does not walk the Top order for a rare word the statistics price as common', async () => {
    // Statistics taken while nine products in ten were named "… zebra", then every name but one changed
    // back: the planner prices "zebra" as nine products in ten, and one product has it. (The same
    // happens with fresh statistics to a word of one histogram entry among enough products: 3.3–4.2 s
    // among 500,000 in bench/scale.ts before migration 20261128800008.)
    const target = {
      table: 'public.products',
      column: 'name',
      where: `id like 'search-%' and name like 'Strain %'`,
    };
    await withOverpricedWord(server, { ...target, keep: 'search-9000' }, async () => {
      const want = await expected({ q: 'zebra', sort: 'top', max_rows: PAGE_SIZE + 1 });
      expect(want).toEqual(['search-9000']);
      // The premise: the view's filter, planned from that price, walks the Top order and reads every
      // product on the way.
      const plain = await productReads(TOP_PAGE, ['%zebra%']);
      expect(ids(plain.rows)).toEqual(want);
      expect(plain.reads).toBeGreaterThan(13_000);
      // The search walks ten pages' worth of the Top order first (250 products, decision 263), then
      // counts through the trigram index and sorts its one match: a few more product reads (the
      // index's candidates, the match by id, its row), not thousands.
      const search = await productReads(SEARCH_TOP_PAGE, ['zebra']);
      expect(ids(search.rows)).toEqual(want);
      expect(search.reads).toBeGreaterThan(0);
      expect(search.reads).toBeLessThan(280);
    });
    // Three updates of every name and two analyses: 28 s on PGlite on a quiet machine (its GIN
    // indexes); as long as the other tests that overprice a word may take.
  }, 120_000);

  it("counts a rare search of one or two letters through the names' runs, not by walking the order", async () => {
    const want = await expected({ q: 'qx', sort: 'top', max_rows: PAGE_SIZE + 1 });
    expect(want.sort()).toEqual(['search-qx1', 'search-qx2', 'search-qx7']);
    // The premise: with no trigram to use, the view's filter reads every product.
    const plain = await productReads(TOP_PAGE, ['%qx%']);
    expect(ids(plain.rows).sort()).toEqual(want);
    expect(plain.reads).toBeGreaterThan(13_000);
    // The search walks ten pages' worth of the order first (250 products, decision 263), then counts
    // its three matches through products_name_grams_idx and sorts them (decision 261).
    const search = await productReads(SEARCH_TOP_PAGE, ['qx']);
    expect(ids(search.rows).sort()).toEqual(want);
    expect(search.reads).toBeGreaterThan(0);
    expect(search.reads).toBeLessThan(280);
  });

  it.each([
    ['&', 'search-amp'],
    ['%', 'search-pct'],
    ['🍄', 'search-mush'],
  ])(
    "counts a rare search of no letter or digit (%s) through the names' marks, not by walking the order",
    async (q, id) => {
      const want = await expected({ q, sort: 'top', max_rows: PAGE_SIZE + 1 });
      expect(want).toEqual([id]);
      const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      // The premise: with no trigram and no run of letters or digits, the view's filter reads every product.
      const plain = await productReads(TOP_PAGE, [pattern]);
      expect(ids(plain.rows)).toEqual(want);
      expect(plain.reads).toBeGreaterThan(13_000);
      // The search walks ten pages' worth of the order first (250 products, decision 263), then counts
      // its one match through products_name_marks_idx and reads it (decision 265).
      const search = await productReads(SEARCH_TOP_PAGE, [q]);
      expect(ids(search.rows)).toEqual(want);
      expect(search.reads).toBeGreaterThan(0);
      expect(search.reads).toBeLessThan(280);
    },
  );

  it('reads a common word down the Top order and stops within a few pages of it', async () => {
    const want = await expected({ q: 'kush', sort: 'top', max_rows: PAGE_SIZE + 1 });
    const search = await productReads(SEARCH_TOP_PAGE, ['kush']);
    expect(ids(search.rows)).toEqual(want);
    // One product in nine is a Kush: the first walk of ten pages' worth (250 products) finds the page
    // about as often as not; otherwise up to the cap (582 here) is counted through the bitmap, then
    // about 225 products walked for 25 Kush, then the page: far from all 13,514.
    expect(search.reads).toBeGreaterThan(25);
    expect(search.reads).toBeLessThan(2_000);
  });
});
