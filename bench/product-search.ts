/**
 * Pass or Gas's name search at a large catalogue (decision 256): the list's former filter on the view
 * (`product_rankings?name=ilike.*word*`) against `search_products`, interleaved, through the real server
 * as a visitor, with the words most likely to mislead the planner: a word of each of the name's
 * histogram entries (priced from the histogram, found in one product), and beside them words of the
 * bench's own vocabulary (bench/scale.ts), common words and two-letter searches (counted through the
 * names' short runs since decision 261) and searches of no letter or digit (counted through the names'
 * marks since decision 265). Run with the name's statistics as they are (1,000 entries,
 * migration 20261128800008) and as they were (100). Then the admins' product list (decision 262): the
 * data API's read against `admin_find_products`, as an admin.
 *
 *   TEST_DB=postgres TEST_PG_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     npx tsx bench/product-search.ts [--products=500000] [--words=30]
 *
 * Products carry tallies from a hash (no votes: the search reads products, tallies and brands).
 */
import { performance } from 'node:perf_hooks';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { signedInAdmin } from '#tests/support/users.ts';
import { PRODUCT_CATEGORIES } from '#web/lib/product-categories.ts';

const argument = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const PRODUCTS = argument('products', 500_000);
const WORDS = argument('words', 30);
// bench/scale.ts's names: two three-syllable words and the product's number.
const SYLLABLES =
  'ka ro mi ta ne lo vi sa du be ri mo za ce fi go ha ju ke li ma no pe qu ra si to ul va we xa yo ze an el in or us ay ex'.split(
    ' ',
  );
const sqlWord = (expr: string) =>
  `(s[1 + (${expr}) % 40] || s[1 + ((${expr}) / 40) % 40] || s[1 + ((${expr}) / 1600) % 40])`;
const sqlMix = (k: number) => `((g::bigint * ${k}) % 64000)::int`;
const COLUMNS =
  'id,name,brand_name,brand_slug,category,strain_type,gas,pass,counted,wilson,trend_key,created_at';

async function seed(server: TestServer): Promise<void> {
  const started = performance.now();
  await server.db.transaction(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    await tx.query(`set local maintenance_work_mem = '512MB'`);
    await tx.query(
      `insert into public.brands (id, name, slug)
       select ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'Search brand ' || g, 'search-brand-' || g
       from generate_series(1, $1::int / 25) g`,
      [PRODUCTS],
    );
    await tx.query(
      `insert into public.products (id, name, category, strain_type, created_at, brand_id)
       select 'pg-' || g, ${sqlWord(sqlMix(7919))} || ' ' || ${sqlWord(sqlMix(31337))} || ' ' || g, c[1 + g % 8],
         (array['indica','sativa','hybrid','n/a'])[1 + g % 4], now() - make_interval(mins => g),
         ('00000000-0000-4000-8000-' || lpad(to_hex(1 + (g - 1) / 25), 12, '0'))::uuid
       from generate_series(1, $1::int) g, (select $2::text[] as s, $3::text[] as c) a`,
      [PRODUCTS, SYLLABLES, [...PRODUCT_CATEGORIES]],
    );
    await tx.query(
      `insert into public.product_tallies (product_id, gas, pass, trend, last_vote_at)
       select p.id, ('x' || substr(md5(p.id), 1, 4))::bit(16)::int % 60,
         ('x' || substr(md5(p.id), 5, 4))::bit(16)::int % 40,
         (('x' || substr(md5(p.id), 9, 4))::bit(16)::int % 1000)::double precision, now()
       from public.products p where p.id like 'pg-%'`,
    );
    // Ten names with an ampersand, for the searches of no letter or digit (decision 265).
    await tx.query(
      `update public.products set name = 'Mac & Cheese ' || substr(id, 4)
       where id in (select 'pg-' || (g * ($1::int / 10)) from generate_series(1, 10) g)`,
      [PRODUCTS],
    );
  });
  await server.db.exec('analyze public.products; analyze public.product_tallies; analyze public.brands;');
  console.log(`${PRODUCTS} products seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** The words: the first word of the first N histogram entries, then the kinds the histogram misses. */
async function words(server: TestServer): Promise<{ label: string; words: string[] }[]> {
  const [stats] = (
    await server.db.query<{ entries: string[] }>(
      `select histogram_bounds::text::text[] as entries
       from pg_stats where schemaname = 'public' and tablename = 'products' and attname = 'name'`,
    )
  ).rows;
  const fromHistogram = (stats?.entries ?? [])
    .slice(1, WORDS + 1)
    .map((name) => name.split(' ')[0] as string);
  const vocabulary = Array.from({ length: WORDS }, (_, i) => {
    const n = Number((BigInt(1 + ((i * 7919) % PRODUCTS)) * 7919n) % 64000n);
    return (
      (SYLLABLES[n % 40] as string) +
      SYLLABLES[Math.floor(n / 40) % 40] +
      SYLLABLES[Math.floor(n / 1600) % 40]
    );
  });
  return [
    { label: 'a word of a histogram entry', words: fromHistogram },
    { label: "a word of bench/scale.ts's searches", words: vocabulary },
    { label: 'a common syllable pair (karo, mita, …)', words: ['kar', 'mit', 'nel', 'vis', 'dub', 'rim'] },
    { label: 'two letters', words: ['ka', 'ro', 'mi', 'xq', 'qz', 'zz'] },
    { label: 'two letters no name has together', words: RARE_PAIRS },
    { label: 'no letter or digit (`&` in 10 names; `#`, `@`, `!`, `+`, 🍄 in none)', words: MARKS },
  ];
}

/** Pairs of letters no name of the seed holds (no syllable ends in the first and starts the second). */
const RARE_PAIRS = ['qz', 'zq', 'jx', 'qq', 'zz', 'jj', 'vv', 'ww', 'kk', 'hh', 'ff', 'gg'];
/** Searches of no letter or digit (decision 265); not % or _, which the view's filter reads as wildcards. */
const MARKS = ['&', '#', '@', '!', '+', '🍄', '&', '#', '@', '!', '+', '🍄'];

async function timed(server: TestServer, path: string, body?: object, token?: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      apikey: server.anonKey,
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  await response.arrayBuffer();
  const ms = performance.now() - started;
  if (!response.ok) return Number.POSITIVE_INFINITY;
  return ms;
}

const view = (word: string) =>
  `/rest/v1/product_rankings?select=${COLUMNS}&name=ilike.*${encodeURIComponent(word)}*&order=wilson.desc,counted.desc,id.asc&limit=25`;
const search = (word: string) =>
  [
    `/rest/v1/rpc/search_products?select=${COLUMNS}&order=wilson.desc,counted.desc,id.asc`,
    { q: word, sort: 'top', max_rows: 25 },
  ] as const;

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  const slowest = sorted.at(-1) ?? 0;
  const over = sorted.filter((ms) => ms > 1000).length;
  const failed = sorted.filter((ms) => !Number.isFinite(ms)).length;
  const show = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : 'timeout');
  return `${show(median)} | ${show(slowest)} | ${over} of ${sorted.length}${failed ? ` (${failed} failed)` : ''}`;
}

async function measure(server: TestServer, statistics: number): Promise<void> {
  await server.db.exec(`alter table public.products alter column name set statistics ${statistics};
    analyze public.products;`);
  console.log(`\n\`products.name\` statistics ${statistics}; ms through the server, Top order, 25 rows`);
  console.log(
    '| words | view filter: median | slowest | over 1 s | search_products: median | slowest | over 1 s |\n|---|---|---|---|---|---|---|',
  );
  for (const group of await words(server)) {
    const before: number[] = [];
    const after: number[] = [];
    for (const [i, word] of group.words.entries()) {
      // Interleaved, each first in turn.
      const [path, body] = search(word);
      if (i % 2 === 0) {
        before.push(await timed(server, view(word)));
        after.push(await timed(server, path, body));
      } else {
        after.push(await timed(server, path, body));
        before.push(await timed(server, view(word)));
      }
    }
    console.log(`| ${group.label} | ${summary(before)} | ${summary(after)} |`);
  }
}

const ADMIN_COLUMNS =
  'id,name,brand_id,category,strain_type,thc_min,thc_max,cbd_min,cbd_max,image_url,description,archived_at,is_sample,created_at';

/**
 * The admins' product list (decision 262): the data API's read an admin's name search would have been
 * (`products?name=ilike.*q*`, newest first, under the table's policy) against `admin_find_products`,
 * interleaved, signed in as an admin.
 */
async function measureAdmin(server: TestServer): Promise<void> {
  const admin = await signedInAdmin(server, { email: 'bench-admin@product-search.example' });
  const dataApi = (q: string) =>
    `/rest/v1/products?select=${ADMIN_COLUMNS}${q ? `&name=ilike.*${encodeURIComponent(q)}*` : ''}&order=created_at.desc&limit=200`;
  const rpc = `/rest/v1/rpc/admin_find_products?select=${ADMIN_COLUMNS}`;
  const names = Array.from({ length: WORDS }, (_, i) => {
    const g = 1 + ((i * 7919) % PRODUCTS);
    const word = (k: number) => {
      const n = Number((BigInt(g) * BigInt(k)) % 64000n);
      return (
        (SYLLABLES[n % 40] as string) +
        SYLLABLES[Math.floor(n / 40) % 40] +
        SYLLABLES[Math.floor(n / 1600) % 40]
      );
    };
    return `${word(7919)} ${word(31337)} ${g}`;
  });
  console.log("\nThe admins' product list, 200 rows, newest first; ms through the server as an admin");
  console.log(
    '| search | data API: median | slowest | over 1 s | admin_find_products: median | slowest | over 1 s |\n|---|---|---|---|---|---|---|',
  );
  for (const group of [
    { label: 'none (the newest 200)', words: Array.from({ length: 10 }, () => '') },
    { label: "a product's whole name", words: names },
    { label: 'two letters no name has together', words: RARE_PAIRS },
    { label: 'no letter or digit', words: MARKS },
  ]) {
    const before: number[] = [];
    const after: number[] = [];
    for (const [i, q] of group.words.entries()) {
      const body = { q: q || null, max_rows: 200 };
      if (i % 2 === 0) {
        before.push(await timed(server, dataApi(q), undefined, admin.token));
        after.push(await timed(server, rpc, body, admin.token));
      } else {
        after.push(await timed(server, rpc, body, admin.token));
        before.push(await timed(server, dataApi(q), undefined, admin.token));
      }
    }
    console.log(`| ${group.label} | ${summary(before)} | ${summary(after)} |`);
  }
}

async function main(): Promise<void> {
  if (process.env.TEST_DB !== 'postgres') throw new Error('Run with TEST_DB=postgres and TEST_PG_URL.');
  console.log(
    `load at start: ${(await import('node:os'))
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const server = await startTestServer({ DEMO_CONTENT: 'false' });
  try {
    await seed(server);
    // Warm both paths once.
    await timed(server, view('kar'));
    await timed(server, ...search('kar'));
    await measure(server, 100);
    await measure(server, 1000);
    await measureAdmin(server);
  } finally {
    await server.close();
  }
  console.log(
    `load at end: ${(await import('node:os'))
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
