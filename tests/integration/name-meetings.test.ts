// @databases: both — the searches' plans are PostgreSQL's, and both databases plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '#tests/support/clients.ts';
import { tableReads } from '#tests/support/plan-reads.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInAdmin } from '#tests/support/users.ts';

/**
 * Where a name's words meet (decision 270): `private.name_meetings(name)` keys each place two words of
 * a name meet (the last three characters of the one, the first three of the next, in lower case), and
 * Pass or Gas's name search and the admins' product and brand lists count a search of words through
 * those keys as well as through the names' trigrams. A key is a necessary condition of the name's
 * `ilike`, so no match is lost; names that hold a search's words apart (every trigram of it, never the
 * meeting) are not read one by one.
 */

let server: TestServer;
let admin: SignedInUser;
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  admin = await signedInAdmin(server, { email: 'admin@name-meetings.example' });
  // The newest 2,000 products and the first 1,000 brands by name have names no search here finds.
  // Older, and after them by name: 300 "Zekami Raweyo …", which hold every trigram of "raweyo zekami"
  // but never those words side by side, and 3 "Raweyo Zekami …", which do.
  await server.db.exec(`
    insert into public.products (id, name, category, created_at)
    select 'meet-' || g,
      case when g <= 2000 then 'Strain ' || md5('meet' || g)
           when g <= 2300 then 'Zekami Raweyo ' || g
           else 'Raweyo Zekami ' || g end,
      'Flower', timestamptz '2026-11-01' - make_interval(mins => g)
    from generate_series(1, 2303) g;
    set session_replication_role = replica;
    insert into public.brands (id, name, slug)
    select md5('meet brand' || g)::uuid,
      case when g <= 1000 then 'Brand ' || md5('meet brand' || g)
           when g <= 1300 then 'Zekami Raweyo ' || g
           else 'Raweyo Zekami ' || g end,
      'meet-brand-' || g
    from generate_series(1, 1303) g;
    set session_replication_role = origin;
    analyze public.products;
    analyze public.brands;`);
}, 120_000);
afterAll(() => server?.close());

const pattern = (text: string) => `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
const ANON = { role: 'anon', claims: { role: 'anon' } } as const;
const asAdmin = () => ({ role: 'authenticated', claims: { sub: admin.id, role: 'authenticated' } }) as const;

describe(`where a name's words meet (${testDatabase()})`, () => {
  it('holds a key of every meeting of words a search finds in a name', async () => {
    // Names of words of every length (none, one, two, three, more; digits, marks, a capital É), and
    // every piece of each as a search: wherever the name holds the piece, its keys are the name's.
    const [checked] = await sql<{ found: number; keyed: number; missed: number }>(`
      with names as (
        select g, array_to_string(array(
          select (array['Ab', 'CDE', 'fghij', 'k', '', 'LmNo', 'Élan', '123456', '&', 'x y'])[1 + ('x' || substr(md5(g || ':' || s), 1, 4))::bit(16)::int % 10]
          from generate_series(1, 2 + g % 5) s), ' ') as name
        from generate_series(1, 120) g),
      pieces as (
        select n.name, btrim(substr(n.name, a, l)) as q
        from names n, generate_series(1, 30) a, generate_series(1, 30) l
        where a + l - 1 <= char_length(n.name)),
      keyed as (
        select p.name, substring(private.name_meetings_condition('x', p.q) from '''(.*)''::text\\[\\]$')::text[] as keys
        from pieces p
        where p.q <> '' and p.name ilike private.contains_pattern(p.q))
      select count(*)::int as found, count(keys)::int as keyed,
        count(*) filter (where not private.name_meetings(name) @> keys)::int as missed
      from keyed`);
    expect(checked?.found).toBeGreaterThan(10_000);
    expect(checked?.keyed).toBeGreaterThan(1_000);
    expect(checked?.missed).toBe(0);
  });

  it.each([
    ['Raweyo Zekami 18336', '{"eyo zek","ami 183"}'],
    ['ab cd', null],
    ['it’s a b', '{"t’s a"}'],
    ['abc  def', '{"abc "," def"}'],
    ['kush', null],
  ])('makes the keys of %j', async (typed, keys) => {
    const [row] = await sql<{ condition: string | null }>(
      `select private.name_meetings_condition('p.name', $1) as condition`,
      [typed],
    );
    expect(row?.condition).toBe(keys === null ? null : `private.name_meetings(p.name) @> '${keys}'::text[]`);
  });

  it.each([
    'raweyo zekami',
    'RAWEYO ZEKAMI 23',
    'eyo zekami 2301',
    'kami raw',
    'ami rawe',
    'o z',
    'zekami  raweyo',
  ])('finds what a direct read finds: %j', async (text) => {
    /** The call's rows equal the direct read's (as the superuser) of those whose name holds the text. */
    const same = async (direct: string, call: PromiseLike<{ data: unknown; error: unknown }>) => {
      const want = await sql<{ id: string }>(direct, [pattern(text)]);
      const { data, error } = await call;
      expect(error).toBeNull();
      expect(data).toEqual(want);
    };
    await same(
      'select id from public.products where name ilike $1 order by created_at desc, id limit 200',
      admin.client.rpc('admin_find_products', { q: text }).select('id'),
    );
    await same(
      'select id from public.brands where archived_at is null and name ilike $1 order by lower(name), id limit 100',
      admin.client.rpc('admin_find_brands', { q: text }).select('id'),
    );
    await same(
      'select id from public.product_rankings where name ilike $1 order by created_at desc, id limit 25',
      anonClient(server).rpc('search_products', { q: text, sort: 'new', max_rows: 25 }).select('id'),
    );
  });

  it('does not read every product that holds the words apart', async () => {
    // The premise: 303 names hold both words, so every trigram of the search; three hold them together.
    const [both] = await sql<{ n: number }>(
      `select count(*)::int as n from public.products where name ilike '%zekami%' and name ilike '%raweyo%'`,
    );
    expect(both?.n).toBe(303);

    // The admins' list walks five pages' worth of the newest (1,000, at most the cap: decision 263),
    // then counts the three through products_name_meetings_idx.
    const [{ walk } = { walk: 0 }] = await sql<{ walk: number }>(
      `select least(1000, private.count_first_cap('public.products', 200)) as walk`,
    );
    expect(walk).toBeGreaterThan(500);
    const listed = await tableReads<{ id: string }>(
      server,
      'public.products',
      asAdmin(),
      `select id from public.admin_find_products('raweyo zekami')`,
    );
    expect(ids(listed.rows)).toEqual(['meet-2301', 'meet-2302', 'meet-2303']);
    expect(listed.reads).toBeGreaterThanOrEqual(walk);
    expect(listed.reads).toBeLessThan(walk + 20);

    // Pass or Gas walks ten pages' worth of its order (250 for 25), then counts the same way.
    const searched = await tableReads<{ id: string }>(
      server,
      'public.products',
      ANON,
      `select id from public.search_products('raweyo zekami', 'new', max_rows => 25)`,
    );
    expect(ids(searched.rows)).toEqual(['meet-2301', 'meet-2302', 'meet-2303']);
    expect(searched.reads).toBeGreaterThan(0);
    expect(searched.reads).toBeLessThan(250 + 20);
  });

  it('does not read every brand that holds the words apart', async () => {
    const [both] = await sql<{ n: number }>(
      `select count(*)::int as n from public.brands where name ilike '%zekami%' and name ilike '%raweyo%'`,
    );
    expect(both?.n).toBe(303);
    // Five pages' worth of the name order (500 "Brand …"), then the three through
    // brands_name_meetings_idx.
    const listed = await tableReads<{ id: string }>(
      server,
      'public.brands',
      asAdmin(),
      `select id from public.admin_find_brands('raweyo zekami')`,
    );
    expect(listed.rows).toHaveLength(3);
    expect(listed.reads).toBeGreaterThanOrEqual(500);
    expect(listed.reads).toBeLessThan(500 + 20);
  });
});
