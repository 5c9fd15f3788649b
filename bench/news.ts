/**
 * News (issue 16, decisions 111–113): ingestion of 20 feeds × 500 items from a local publisher, and
 * search and paging through 200,000 articles, through the real server on both databases.
 *
 *   npx tsx bench/news.ts [pglite|postgres] [--articles N] [--feeds N] [--items N] [--queries N] [--explain]
 *
 * Ingestion: `POST /functions/v1/news-refresh` with the service key — fetch (HTTP, RSS), parse,
 * sanitise, de-duplicate and group in the database — timed end to end: new items per second. A second
 * refresh of the same feeds (nothing new: every item a duplicate) is timed too.
 * Search: the table is then filled to N articles (default 200,000) with titles and summaries drawn
 * from an industry vocabulary, and `rpc('news_feed')` is called over HTTP with the anon key: the first
 * page of the feed, a one- or two-word search (newest first and by relevance), and the 10th page of a
 * search by keyset. p50/p95 per kind. `postgres` needs BENCH_PG_URL or TEST_PG_URL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';
import { type FeedItem, rss, startFeedServer } from '#tests/support/feed-server.ts';
import { scratchPostgres, table } from './support.ts';

const tier = (process.argv[2] ?? 'pglite') as 'pglite' | 'postgres';
function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}
const ARTICLES = flag('articles', 200_000);
const FEEDS = flag('feeds', 20);
const ITEMS = flag('items', 500);
const QUERIES = flag('queries', 100);
// PostgreSQL only: print the plans (EXPLAIN ANALYZE, BUFFERS) of the statements news_feed and
// news_ingest run, through auto_explain on a connection of the bench's own.
const EXPLAIN = process.argv.includes('--explain');

const WORDS =
  `cannabis hemp licensing regulators dispensary cultivation growers harvest market prices wholesale
retail flower edibles vape concentrates tax revenue legislature senate governor ballot measure legalization
medical patients adult-use sales record quarterly earnings stock shares index investors merger acquisition
bankruptcy layoffs expansion facility greenhouse outdoor indoor testing laboratory potency contamination recall
pesticide mold compliance enforcement raid license application lottery equity social justice expungement
banking safe act rescheduling federal dea fda hearing court lawsuit ruling appeal attorney general delta-8
thc cbd terpenes strain genetics seeds clones nursery distributor delivery lounge consumption tourism event
festival cup award brand packaging labeling advertising marketing youth prevention survey study research
university clinical trial opioid pain anxiety sleep veterans ohio michigan colorado california oregon
washington massachusetts illinois new-york new-jersey florida texas pennsylvania virginia maryland missouri
arizona nevada canada germany thailand mexico uruguay europe export import supply chain shortage surplus
price-compression inventory software payments cashless atm insurance real-estate lease zoning moratorium
city council county local opt-out referendum petition signatures campaign poll voters`
    .split(/\s+/)
    .filter(Boolean);

function pick(random: () => number, count: number): string {
  return Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-bench-news-'));
  const scratch = tier === 'postgres' ? await scratchPostgres() : null;
  const feeds = await startFeedServer();
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DEMO_CONTENT: 'false',
      NEWS_REFRESH_MINUTES: '0',
      NEWS_ALLOW_PRIVATE_HOSTS: 'true',
      NEWS_FETCH_TIMEOUT_MS: '60000',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    }),
    { logger: false, webDir: WEB_DIST },
  );
  const { db, keys } = server.ctx;
  try {
    // ---------------------------------------------------------------------------------------------
    // Ingestion: FEEDS feeds × ITEMS items, one story in ten told by two feeds.
    // ---------------------------------------------------------------------------------------------
    await db.query(`delete from public.news_sources`);
    const random = seeded(42);
    const now = Date.now();
    for (let feed = 0; feed < FEEDS; feed += 1) {
      const items: FeedItem[] = Array.from({ length: ITEMS }, (_, index) => {
        const shared = index % 10 === 0;
        const story = shared
          ? `Shared story ${Math.floor(index / 10)} ${feed % 2 === 0 ? feed : feed - 1}`
          : '';
        return {
          guid: `feed-${feed}-item-${index}`,
          title: shared ? `${story} ${pick(seeded(index + 1), 6)}` : `${pick(random, 8)} ${feed}-${index}`,
          link: `https://publisher-${feed}.example/articles/${index}?utm_source=rss`,
          summary: `<p>${pick(random, 30)}</p><script>alert(1)</script>`,
          // A busy publisher: one item every two hours (500 items ≈ six weeks).
          date: new Date(now - index * 7_200_000 - feed * 60_000),
          author: `Writer ${feed}`,
        };
      });
      feeds.feed(`/feed-${feed}.xml`, rss(`Publisher ${feed}`, items), { gzip: true });
      await db.query(`insert into public.news_sources (name, feed_url, category) values ($1, $2, $3)`, [
        `Publisher ${feed}`,
        `${feeds.url}/feed-${feed}.xml`,
        ['Policy', 'Business', 'Markets', 'Culture', 'Hemp'][feed % 5],
      ]);
    }
    const refresh = async () => {
      const started = performance.now();
      const response = await fetch(`${server.url}/functions/v1/news-refresh`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const body = (await response.json()) as {
        sources: { new_items: number; status: string; error: string | null }[];
      };
      const ms = performance.now() - started;
      if (!response.ok) throw new Error(`refresh answered ${response.status}: ${JSON.stringify(body)}`);
      const failed = body.sources.filter((source) => source.status !== 'ok');
      if (failed.length) throw new Error(`refresh failed: ${JSON.stringify(failed[0])}`);
      return { ms, added: body.sources.reduce((sum, source) => sum + source.new_items, 0) };
    };
    const first = await refresh();
    const again = await refresh();
    const grouped = await db.query<{ n: string }>(
      `select count(*) as n from public.news_articles where story_id <> id`,
    );
    const ingestion = [
      {
        run: `first refresh (${FEEDS} × ${ITEMS})`,
        'new items': first.added,
        seconds: (first.ms / 1000).toFixed(2),
        'items/s': Math.round((FEEDS * ITEMS) / (first.ms / 1000)),
      },
      {
        run: 'same feeds again (all duplicates)',
        'new items': again.added,
        seconds: (again.ms / 1000).toFixed(2),
        'items/s': Math.round((FEEDS * ITEMS) / (again.ms / 1000)),
      },
    ];

    // ---------------------------------------------------------------------------------------------
    // Fill to ARTICLES articles.
    // ---------------------------------------------------------------------------------------------
    const fillStarted = performance.now();
    const words = `array[${WORDS.map((word) => `'${word}'`).join(',')}]`;
    const [{ id: sourceId } = { id: '' }] = (
      await db.query<{ id: string }>(`select id from public.news_sources limit 1`)
    ).rows;
    const have = Number(
      (await db.query<{ n: string }>(`select count(*) as n from public.news_articles`)).rows[0]?.n,
    );
    const BATCH = 20_000;
    for (let start = have; start < ARTICLES; start += BATCH) {
      const end = Math.min(ARTICLES, start + BATCH);
      await db.query(
        `with w as (select ${words} as w)
         insert into public.news_articles (id, story_id, source_id, guid, title, url, url_key, summary, source_name, category, published_at, fingerprint)
         select g.id, g.id, $1::uuid, 'fill-' || g.i, g.title, 'https://fill.example/' || g.i, 'fill.example/' || g.i, g.summary,
                'Publisher 0', (array['Policy','Business','Markets','Culture','Hemp'])[1 + g.i % 5],
                now() - (g.i * interval '5 minutes'), lower(g.title)
         from (
           select gen_random_uuid() as id, i,
                  (select string_agg(w.w[1 + floor(random() * cardinality(w.w))::int + 0 * k], ' ') from generate_series(1, 8 + 0 * i) as k) as title,
                  (select string_agg(w.w[1 + floor(random() * cardinality(w.w))::int + 0 * k], ' ') from generate_series(1, 30 + 0 * i) as k) as summary
           from generate_series($2::int, $3::int - 1) as i, w
         ) as g`,
        [sourceId, start, end],
      );
    }
    await db.query('analyze public.news_articles');
    const fillSeconds = (performance.now() - fillStarted) / 1000;

    // ---------------------------------------------------------------------------------------------
    // Search and paging over HTTP, as the page calls them.
    // ---------------------------------------------------------------------------------------------
    const rpc = async (args: Record<string, unknown>) => {
      const started = performance.now();
      const response = await fetch(`${server.url}/rest/v1/rpc/news_feed`, {
        method: 'POST',
        headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      const rows = (await response.json()) as { id: string; published_at: string; rank: number }[];
      if (!response.ok) throw new Error(JSON.stringify(rows));
      return { ms: performance.now() - started, rows };
    };
    const queryRandom = seeded(7);
    const kinds: Record<string, number[]> = {
      'feed, first page': [],
      'feed, category': [],
      'search 1 word, newest': [],
      'search 2 words, newest': [],
      'search 1 word, relevance': [],
      'search, 10th page (keyset)': [],
    };
    for (let round = 0; round < 3; round += 1) await rpc({ p_query: pick(queryRandom, 1) }); // warm-up
    for (let i = 0; i < QUERIES; i += 1) {
      kinds['feed, first page']?.push((await rpc({})).ms);
      kinds['feed, category']?.push((await rpc({ p_category: 'Hemp' })).ms);
      kinds['search 1 word, newest']?.push((await rpc({ p_query: pick(queryRandom, 1) })).ms);
      kinds['search 2 words, newest']?.push((await rpc({ p_query: pick(queryRandom, 2) })).ms);
      kinds['search 1 word, relevance']?.push(
        (await rpc({ p_query: pick(queryRandom, 1), p_sort: 'relevance' })).ms,
      );
      if (i % 5 === 0) {
        const q = pick(queryRandom, 1);
        let cursor: Record<string, unknown> = {};
        let last = 0;
        for (let page = 0; page < 10; page += 1) {
          const { ms, rows } = await rpc({ p_query: q, ...cursor });
          last = ms;
          const end = rows[rows.length - 1];
          if (!end || rows.length < 20) break;
          cursor = { p_before_at: end.published_at, p_before_id: end.id };
        }
        kinds['search, 10th page (keyset)']?.push(last);
      }
    }
    if (EXPLAIN && scratch) await explainPlans(scratch.url, pick(seeded(11), 1), pick(seeded(12), 2));
    console.log(`\nnews bench — ${tier}, load average ${loadavg()[0]?.toFixed(1)}\n`);
    table(ingestion);
    console.log(
      `grouped into stories: ${grouped.rows[0]?.n} articles; filled to ${ARTICLES} articles in ${fillSeconds.toFixed(1)} s\n`,
    );
    table(
      Object.entries(kinds).map(([kind, times]) => ({
        'rpc news_feed over HTTP': kind,
        calls: times.length,
        'p50 ms': percentile(times, 50).toFixed(1),
        'p95 ms': percentile(times, 95).toFixed(1),
      })),
    );
  } finally {
    await server.close();
    await feeds.close();
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The plans of the statements inside news_feed and news_ingest (auto_explain, nested statements). */
async function explainPlans(url: string, word: string, words: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const plans: string[] = [];
  client.on('notice', (notice) => {
    if (/news_articles/.test(notice.message ?? '')) plans.push(notice.message ?? '');
  });
  try {
    await client.query(`load 'auto_explain'`);
    await client.query(`set auto_explain.log_min_duration = 0`);
    await client.query(`set auto_explain.log_analyze = on`);
    await client.query(`set auto_explain.log_buffers = on`);
    await client.query(`set auto_explain.log_timing = on`);
    await client.query(`set auto_explain.log_nested_statements = on`);
    await client.query(`set client_min_messages = log`);
    const calls: [string, string, unknown[]][] = [
      ['feed, first page', 'select * from public.news_feed()', []],
      ['feed, category', `select * from public.news_feed(p_category => 'Hemp')`, []],
      ['search 1 word, newest', 'select * from public.news_feed(p_query => $1)', [word]],
      ['search 2 words, newest', 'select * from public.news_feed(p_query => $1)', [words]],
      [
        'search 1 word, relevance',
        `select * from public.news_feed(p_query => $1, p_sort => 'relevance')`,
        [word],
      ],
    ];
    for (const [label, sql, args] of calls) {
      plans.length = 0;
      await client.query(sql, args);
      console.log(`\n=== plan: ${label} (${JSON.stringify(args)})\n${plans.join('\n')}`);
    }
    // Ingestion: one more source delivering 500 items, one in ten the same story as feed 1's item.
    const source = await client.query<{ id: string }>(
      `insert into public.news_sources (name, feed_url, category) values ('Explain', 'https://explain.example/feed', 'Policy') returning id`,
    );
    const items = await client.query<{ items: unknown }>(
      `select jsonb_agg(jsonb_build_object('guid', 'explain-' || n, 'title',
                case when n % 10 = 0 then title else 'Explain ' || n || ' ' || title end,
                'url', 'https://explain.example/' || n, 'summary', summary, 'published_at', published_at)) as items
       from (select row_number() over (order by published_at desc) as n, title, summary, published_at
             from public.news_articles where guid like 'feed-1-item-%' limit 500) as a`,
    );
    plans.length = 0;
    const started = performance.now();
    await client.query('select private.news_ingest($1, $2)', [
      source.rows[0]?.id,
      JSON.stringify(items.rows[0]?.items),
    ]);
    const ms = performance.now() - started;
    console.log(
      `\n=== plan: news_ingest, 500 items (${ms.toFixed(0)} ms with auto_explain)\n${plans.join('\n')}`,
    );
  } finally {
    await client.end();
  }
}

await main();
