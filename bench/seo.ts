/**
 * Found and shared (issue 39, decision 183): the brand page's HTML with its server-built head (title,
 * description, canonical, Open Graph, JSON-LD), on PostgreSQL with 20,000 brands, each with a licence
 * and a tally row. Times each request from sending to the whole body: first a distinct brand per request
 * (every head read from the database: the cache never helps), then the same brands again within the
 * head cache's 30 s (read from the process).
 *
 *   npx tsx bench/seo.ts [postgres|pglite] [--brands=20000] [--requests=2000]
 *
 * `postgres` needs BENCH_PG_URL or TEST_PG_URL. The seed bypasses the triggers (session_replication_role
 * = replica) and writes the licences and tallies in one statement each, as a bulk import would.
 * Aim (issue 39): p95 ≤ 20 ms on PostgreSQL for the uncached head.
 */
import { startTestServer } from '#tests/support/test-server.ts';

const tier = (process.argv[2] ?? 'postgres') as 'pglite' | 'postgres';
const arg = (name: string, fallback: number) => {
  const found = process.argv.find((value) => value.startsWith(`--${name}=`));
  return found ? Number(found.slice(name.length + 3)) : fallback;
};
const BRANDS = arg('brands', 20_000);
const REQUESTS = Math.min(arg('requests', 2000), BRANDS);

if (tier === 'postgres') {
  process.env.TEST_DB = 'postgres';
  process.env.TEST_PG_URL ??= process.env.BENCH_PG_URL;
}

const server = await startTestServer({ SITE_URL: 'https://highgrade.example', SEARCH_INDEXING: 'true' });
try {
  await server.db.transaction(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    await tx.query(
      `insert into public.brands (name, slug, city, states, description)
       select 'Bench Brand ' || g, 'bench-brand-' || g, 'City ' || (g % 300), array['CA'],
              'A brand made for the benchmark, number ' || g || '.'
       from generate_series(1, $1::int) as g`,
      [BRANDS],
    );
    await tx.query(
      `insert into public.brand_licences (brand_id, number, state, type, is_primary)
       select id, 'LIC-' || substr(slug, 13), 'CA', 'Adult-use', true from public.brands where slug like 'bench-brand-%'`,
    );
    await tx.query(
      `insert into public.brand_tallies (brand_id, products, gas, pass)
       select id, 2, 20, 5 from public.brands where slug like 'bench-brand-%' on conflict (brand_id) do nothing`,
    );
    // The directory's kept count of live brands, which the triggers would have moved (decision 250).
    await tx.query('select private.brands_recount_live()');
  });
  await server.db.query('analyze public.brands');
  await server.db.query('analyze public.brand_licences');
  await server.db.query('analyze public.brand_tallies');

  const time = async (slug: string, missing = false) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/brand-directory/${slug}`, {
      headers: { cookie: 'hg_age_verified=1' },
    });
    const html = await response.text();
    const ms = performance.now() - started;
    if (missing ? response.status !== 404 : response.status !== 200 || !html.includes('application/ld+json'))
      throw new Error(`no head for ${slug} (${response.status})`);
    return ms;
  };
  const slugs = Array.from(
    { length: REQUESTS },
    (_, i) => `bench-brand-${1 + Math.floor((i * BRANDS) / REQUESTS)}`,
  );
  for (const slug of slugs.slice(0, 20)) await time(`${slug}-warmup`, true); // not-found heads (404): connections, JIT of the server
  const cold: number[] = [];
  for (const slug of slugs) cold.push(await time(slug));
  const warm: number[] = [];
  for (const slug of slugs) warm.push(await time(slug));
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(1)} ms`;
  };
  console.log(
    `brand page with its head, ${tier}, ${BRANDS} brands, ${REQUESTS} requests each, one at a time`,
  );
  console.table([
    { run: 'uncached head (one query)', p50: pct(cold, 50), p95: pct(cold, 95), p99: pct(cold, 99) },
    { run: 'cached head (within 30 s)', p50: pct(warm, 50), p95: pct(warm, 95), p99: pct(warm, 99) },
  ]);
} finally {
  await server.close();
}
