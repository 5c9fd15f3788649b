/**
 * Brand directory at size (issue 18): 20,000 brands with 40,000 products and their tallies, then through
 * /rest/v1 what visitors do — a typo-tolerant directory search (search_brands with a misspelt name),
 * the directory's first page per sort, and a trust page (brand_page: brand, tallies, products with
 * their Top rank, scam-report summary).
 *
 *   npx tsx bench/brands.ts [pglite|postgres] [--brands=20000]
 *
 * `postgres` needs BENCH_PG_URL or TEST_PG_URL. The seed bypasses the triggers (session_replication_role
 * = replica) and computes the brands' tallies in one statement, as a bulk import would.
 * Aims (issue 18): typo search p95 ≤ 30 ms on PostgreSQL and ≤ 100 ms embedded; trust page p95 ≤ 50 ms.
 */
import { startTestServer } from '#tests/support/test-server.ts';

const tier = (process.argv[2] ?? 'pglite') as 'pglite' | 'postgres';
const brandsArg = process.argv.find((arg) => arg.startsWith('--brands='));
const BRANDS = brandsArg ? Number(brandsArg.slice('--brands='.length)) : 20_000;
const PRODUCTS = BRANDS * 2;
const SAMPLES = 200;

if (tier === 'postgres') {
  process.env.TEST_DB = 'postgres';
  process.env.TEST_PG_URL ??= process.env.BENCH_PG_URL;
}

const FIRST = [
  'Green',
  'Emerald',
  'Golden',
  'Pacific',
  'Mountain',
  'Desert',
  'Northern',
  'Southern',
  'Coastal',
  'Harbor',
  'River',
  'Sunset',
  'Sunrise',
  'Royal',
  'Urban',
  'Wild',
  'Hidden',
  'Silver',
  'Blue',
  'Purple',
  'Crimson',
  'Lucky',
  'Humble',
  'Honest',
  'Misty',
  'Cloud',
  'Stone',
  'Cedar',
  'Pine',
  'Oak',
  'Maple',
  'Canyon',
  'Valley',
  'Prairie',
  'Island',
  'Lake',
  'Highland',
  'Lowland',
  'Bright',
  'Noble',
];
const SECOND = [
  'Thumb',
  'Leaf',
  'Garden',
  'Grove',
  'Field',
  'Harvest',
  'Root',
  'Bloom',
  'Bud',
  'Seed',
  'Farm',
  'Ranch',
  'Trail',
  'Peak',
  'Ridge',
  'Creek',
  'Spring',
  'Meadow',
  'Orchard',
  'Vine',
  'Flame',
  'Frost',
  'Haze',
  'Kush',
  'Tide',
  'Wave',
  'Moon',
  'Star',
  'Sun',
  'Sky',
  'Fox',
  'Bear',
  'Wolf',
  'Hawk',
  'Owl',
  'Elk',
  'Bee',
  'Crane',
  'Otter',
  'Heron',
];
const THIRD = [
  'Collective',
  'Cannabis Co',
  'Farms',
  'Extracts',
  'Gardens',
  'Labs',
  'Growers',
  'Botanicals',
  'Supply',
  'Cultivation',
  'Wellness',
  'Brands',
  'Organics',
];
const STATES = ['CA', 'CO', 'WA', 'OR', 'NV', 'MI', 'IL', 'MA', 'NY', 'NJ', 'AZ', 'MO', 'OK', 'MT', 'ME'];
const CATEGORIES = [
  'Flower',
  'Concentrates',
  'Edibles',
  'Vape Cartridges',
  'Topicals',
  'Accessories',
  'Seeds',
  'Other',
];

const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

const p = (samples: number[], q: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
};

/** A member's typo: one letter dropped from the first word, the second word's last letter cut. */
function typo(name: string, seed: number): string {
  const [first = '', second = ''] = name.toLowerCase().split(' ');
  const at = 1 + (seed % Math.max(1, first.length - 2));
  return `${first.slice(0, at)}${first.slice(at + 1)} ${second.slice(0, Math.max(3, second.length - 1))}`;
}

async function main() {
  console.log(`Brand directory bench on ${tier}: ${BRANDS} brands, ${PRODUCTS} products`);
  const server = await startTestServer({ DEMO_CONTENT: 'false' });
  const db = server.db;
  try {
    const seedStart = performance.now();
    await db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(
        `insert into public.brands (name, slug, states, city, categories, licence_number, licence_state,
           licence_type, verification, verified, verified_at, verification_note, description, created_at)
         select n.name, regexp_replace(lower(n.name), '[^a-z0-9]+', '-', 'g'),
           array[(${sqlArray(STATES)})[1 + g % ${STATES.length}]] ||
             case when g % 5 = 0 then array[(${sqlArray(STATES)})[1 + (g / 7) % ${STATES.length}]] else '{}' end,
           'City ' || (g % 300),
           array[(${sqlArray(CATEGORIES)})[1 + g % 8]] ||
             case when g % 3 = 0 then array[(${sqlArray(CATEGORIES)})[1 + (g / 3) % 8]] else '{}' end,
           'LIC-' || g, (${sqlArray(STATES)})[1 + g % ${STATES.length}], 'Adult-use',
           case when g % 4 = 0 then 'verified' else 'unverified' end, g % 4 = 0,
           case when g % 4 = 0 then now() - interval '30 days' end,
           case when g % 4 = 0 then 'Checked on the state register.' end,
           'A brand made by the benchmark.', now() - make_interval(mins => g)
         from generate_series(0, $1::int - 1) g,
           lateral (select (${sqlArray(FIRST)})[1 + g % 40] || ' ' || (${sqlArray(SECOND)})[1 + (g / 40) % 40]
             || ' ' || (${sqlArray(THIRD)})[1 + (g / 1600) % 13]
             || case when g >= 20800 then ' ' || g else '' end as name) n
         on conflict (slug) do nothing`,
        [BRANDS],
      );
      // Every brand's licence is its primary licence (as the triggers would make it), and every third
      // brand holds a second one (decision 151): the trust page lists them.
      await tx.query(
        `insert into public.brand_licences (brand_id, number, state, type, verification, verified_at,
           verification_note, is_primary)
         select b.id, b.licence_number, b.licence_state, b.licence_type, b.verification, b.verified_at,
           b.verification_note, true
         from public.brands b where b.licence_number is not null
         union all
         select b.id, b.licence_number || '-2', 'ZZ', 'Manufacturer', 'unverified', null, null, false
         from public.brands b where b.licence_number is not null and abs(hashtext(b.slug)) % 3 = 0`,
      );
      await tx.query(
        `insert into public.products (id, name, category, brand_id, created_at)
         select 'bench-' || row_number() over (), b.name || ' product ' || k, b.categories[1], b.id, b.created_at
         from public.brands b, generate_series(1, 2) k`,
      );
      await tx.query(
        `insert into public.product_tallies (product_id, gas, pass)
         select p.id, (abs(hashtext(p.id)) % 40), (abs(hashtext(p.id || 'x')) % 20) from public.products p
         where p.id like 'bench-%'`,
      );
      await tx.query(
        `insert into public.brand_tallies (brand_id, products, gas, pass)
         select b.id, count(p.id), coalesce(sum(t.gas), 0), coalesce(sum(t.pass), 0)
         from public.brands b left join public.products p on p.brand_id = b.id
         left join public.product_tallies t on t.product_id = p.id group by b.id`,
      );
      // The directory's kept count of live brands, which the triggers would have moved (decision 250).
      await tx.query('select private.brands_recount_live()');
    });
    await db.query(
      'analyze public.brands, public.brand_licences, public.products, public.product_tallies, public.brand_tallies',
    );
    const { rows: names } = await db.query<{ name: string; slug: string }>(
      `select name, slug from public.brands order by md5(id::text) limit ${SAMPLES}`,
    );
    console.log(`seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const headers = { apikey: server.anonKey, 'content-type': 'application/json' };
    const rpc = async (fn: string, body: object) => {
      const start = performance.now();
      const response = await fetch(`${server.url}/rest/v1/rpc/${fn}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      const data = await response.json();
      if (response.status !== 200) throw new Error(`${fn}: ${response.status} ${JSON.stringify(data)}`);
      return { ms: performance.now() - start, data };
    };

    const measure = async (
      label: string,
      make: (i: number) => [string, object],
      check?: (data: unknown, i: number) => boolean,
    ) => {
      const samples: number[] = [];
      let misses = 0;
      for (let i = 0; i < SAMPLES + 10; i += 1) {
        const [fn, body] = make(i);
        const { ms, data } = await rpc(fn, body);
        if (check && !check(data, i)) misses += 1;
        if (i >= 10) samples.push(ms);
      }
      const row = {
        measure: label,
        p50: p(samples, 0.5).toFixed(1),
        p95: p(samples, 0.95).toFixed(1),
        misses,
      };
      console.log(JSON.stringify(row));
      return row;
    };

    const sample = (i: number) => names[i % names.length] as { name: string; slug: string };
    const rows = [
      await measure(
        'typo search (first page, best match)',
        (i) => ['search_brands', { q: typo(sample(i).name, i) }],
        (data, i) => {
          const found = (data as { name: string }[]).some((row) => row.name === sample(i).name);
          if (!found && process.argv.includes('--misses')) {
            console.log(
              'miss',
              typo(sample(i).name, i),
              '→',
              sample(i).name,
              (data as { name: string }[]).length,
            );
          }
          return found;
        },
      ),
      await measure('typo search + state + verified only', (i) => [
        'search_brands',
        { q: typo(sample(i).name, i), state: 'CA', verified_only: true },
      ]),
      await measure('directory first page by name', () => ['search_brands', { sort: 'name' }]),
      await measure('directory first page by community score', () => ['search_brands', { sort: 'score' }]),
      await measure('directory page 40 by newest, category filter', () => [
        'search_brands',
        { sort: 'newest', category: 'Edibles', page_offset: 24 * 40 },
      ]),
      await measure(
        'trust page (brand_page)',
        (i) => ['brand_page', { p_slug: sample(i).slug }],
        (data) => Array.isArray((data as { products: unknown[] }).products),
      ),
    ];
    console.table(rows);
    const load = (await import('node:os')).loadavg()[0]?.toFixed(2);
    console.log(`load average (1 min): ${load}`);
  } finally {
    await server.close();
  }
}

await main();
