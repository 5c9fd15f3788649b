// @databases: both — the planner's use of indexes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestScope } from '#server/db/driver.ts';
import { planRequest } from '#server/rest/plan.ts';
import { Params, readStatement } from '#server/rest/query.ts';
import { parseApiRequest } from '#server/rest/request.ts';
import { loadSchemaCache } from '#server/rest/schema-cache.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';
import { memberSearchQuery } from '#web/features/admin/member-search.ts';

/**
 * The text anyone may search through the data API (product comments) has indexes, and the SQL the
 * data API generates for `fts` and `ilike` filters is SQL those indexes serve (issue 13, decision
 * 092). The planner is told to avoid sequential scans, so a plan without the index means the index
 * cannot be used at all.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** The indexes in the plan of the data API's statement for `GET /rest/v1/<name>?<query>`. */
async function indexesUsed(
  name: string,
  query: string,
  options: { planner?: 'free' } = {},
): Promise<string[]> {
  const plan = await planOf(name, query, options);
  return [...plan.matchAll(/"Index Name":"([^"]+)"/g)].map((match) => match[1] as string);
}

/** The plan (JSON text) of the data API's statement for `GET /rest/v1/<name>?<query>`. */
async function planOf(
  name: string,
  query: string,
  options: { planner?: 'free'; as?: string } = {},
): Promise<string> {
  const cache = await loadSchemaCache(server.db);
  const planned = planRequest(
    { cache, maxRows: 1000 },
    parseApiRequest({ method: 'GET', route: 'relation', name, query, headers: {}, body: undefined }),
  );
  if (planned.plan.kind !== 'read') throw new Error('not a read');
  const p = new Params();
  const sql = readStatement(p, planned.plan.read, { media: planned.media, head: false, count: undefined });
  const scope: RequestScope = options.as
    ? { role: 'authenticated', claims: { sub: options.as, role: 'authenticated' } }
    : { role: 'anon', claims: { role: 'anon' } };
  const { rows } = await server.db.withScope(scope, async (tx) => {
    if (options.planner !== 'free') await tx.query('set local enable_seqscan = off');
    return tx.query<{ plan: unknown }>(`explain (format json) ${sql}`, p.values);
  });
  return JSON.stringify(Object.values(rows[0] ?? {})[0]);
}

describe(`search indexes (${testDatabase()})`, () => {
  it('serves the full-text search that took 19 s on 40,000 comments', async () => {
    const used = await indexesUsed('product_comments', 'select=id&content=fts.zzz%20%26%20!qqq&limit=1');
    expect(used).toContain('product_comments_content_fts_idx');
  });

  it.each([
    ['plfts', 'plfts.gas%20pass'],
    ['phfts', 'phfts.gas%20pass'],
    ['wfts', 'wfts.gas%20-pass'],
    ['fts with the default language named', 'fts(english).gas'],
  ])('serves %s', async (_name, filter) => {
    const used = await indexesUsed('product_comments', `select=id&content=${filter}`);
    expect(used).toContain('product_comments_content_fts_idx');
  });

  it('serves ilike and like with wildcards on every side, also inside or=(...)', async () => {
    for (const query of [
      'select=id&content=ilike.*kush*',
      'select=id&content=like.*Kush*',
      'select=id&or=(content.ilike.*kush*,content.ilike.*haze*)',
    ]) {
      expect(await indexesUsed('product_comments', query)).toContain('product_comments_content_trgm_idx');
    }
  });

  it("reads the admins' member list in each order the page asks for from an index, not by sorting every member", async () => {
    // bench/scale.ts: "newest" sorted all 100,000 members (and computed the view's columns for each): 425 ms.
    const admin = '00000000-0000-4000-8000-0000000000c2';
    await server.db.exec(`
      insert into auth.users (id, email) values ('${admin}', 'member-orders@example.com');
      insert into public.user_roles (user_id, role) values ('${admin}', 'admin');`);
    const columns = 'select=id,email,full_name,created_at,report_count,booking_count';
    for (const [order, index] of [
      ['created_at.desc.nullslast,id.desc', 'profiles_created_at_desc_user_id_idx'],
      ['created_at.asc.nullslast,id.asc', 'profiles_created_at_user_id_idx'],
      ['full_name.asc.nullslast,id.asc', 'profiles_full_name_user_id_idx'],
    ] as const) {
      const plan = await planOf('admin_members', `${columns}&order=${order}&offset=0&limit=25`, {
        as: admin,
      });
      expect(plan, order).toContain(`"Index Name":"${index}"`);
      expect(plan, order).not.toContain('"Node Type":"Sort"');
    }
  });

  it("finds members for the admins' search through the index of their words (decision 255)", async () => {
    // bench/scale.ts: the trigram search read the posting lists of trigrams most members share, 2.7× the
    // cost at ten times the members. The web app's own query, from a search as typed.
    // 2,000 members (their words written by the profile's trigger), so that walking a whole index in the
    // page's order costs the planner more than the search.
    const admin = '00000000-0000-4000-8000-0000000000c6';
    await server.db.exec(`
      insert into auth.users (id, email) values ('${admin}', 'member-words@example.com');
      insert into public.user_roles (user_id, role) values ('${admin}', 'admin');
      insert into auth.users (id, email)
      select gen_random_uuid(), 'words-' || g || '@members.example' from generate_series(1, 2000) g;
      analyze public.profiles;
      analyze private.member_search;`);
    const words = encodeURIComponent(memberSearchQuery('Jane.Doe@gm'));
    const plan = await planOf(
      'admin_member_search',
      `select=id,email&search_words=fts(simple).${words}&order=created_at.desc.nullslast,id.desc&offset=0&limit=25`,
      { as: admin },
    );
    expect(plan).toContain('"Index Name":"member_search_words_idx"');
  });

  it("reads the admins' list of team posts in either order from an index, not by sorting every post", async () => {
    // bench/scale.ts: each page sorted every post, 61 ms with 100,000 posts.
    const admin = '00000000-0000-4000-8000-0000000000c5';
    await server.db.exec(`
      insert into auth.users (id, email) values ('${admin}', 'post-orders@example.com');
      insert into public.user_roles (user_id, role) values ('${admin}', 'admin');`);
    for (const order of ['created_at.desc,id.desc', 'created_at.asc,id.asc']) {
      for (const state of ['', '&status=eq.draft']) {
        const plan = await planOf(
          'admin_posts',
          `select=id,title,status&order=${order}${state}&offset=0&limit=25`,
          {
            as: admin,
          },
        );
        expect(plan, order + state).toContain('"Index Name":"admin_posts_created_at_id_idx"');
        expect(plan, order + state).not.toContain('"Node Type":"Sort"');
      }
    }
  });

  it("serves a visitor's Pass or Gas name search from the trigram index (decision 248)", async () => {
    // Through the products policy PostgreSQL kept `ilike` (not leakproof) off the index, however many
    // products there were: 70 ms among 90,000 products in bench/scale.ts against 5.7 ms with it.
    await server.db.exec(`
      insert into public.products (id, name, category, created_at)
      select 'search-indexes-' || g, 'Product ' || md5(g::text), 'Flower', now() - make_interval(mins => g)
      from generate_series(1, 5000) g;
      analyze public.products;
      analyze public.product_tallies;`);
    const plan = await planOf(
      'product_rankings',
      'select=id,name,gas,pass&name=ilike.*kush*&order=wilson.desc,counted.desc,id.asc&limit=25',
    );
    expect(plan).toContain('"Index Name":"products_name_trgm_idx"');
  });

  it('prices a Pass or Gas name search for a word in the histogram as rare, and does not walk the Top order for it', async () => {
    // Migration 20261128800008: with 100 histogram entries, a word found in one of them was priced as one
    // product in a hundred, and the planner walked the Top order checking every product's name (3.3–4.2 s
    // among 500,000 products in bench/scale.ts). With 1,000 entries it is one in a thousand.
    await server.db.exec(`
      insert into public.products (id, name, category, created_at)
      select 'histogram-' || g, 'Strain ' || md5('histogram' || g), 'Flower', now() - make_interval(mins => g)
      from generate_series(1, 10000) g;
      analyze public.products;
      analyze public.product_tallies;`);
    const { rows: stats } = await server.db.query<{ entries: number; second: string; products: number }>(
      `select array_length(histogram_bounds::text::text[], 1) as entries,
         (histogram_bounds::text::text[])[2] as second,
         (select count(*)::int from public.products) as products
       from pg_stats where schemaname = 'public' and tablename = 'products' and attname = 'name'`,
    );
    const { entries, second, products } = stats[0] ?? { entries: 0, second: '', products: 0 };
    expect(entries).toBe(1001);
    // Ten characters of the entry's md5: a word only that product has.
    const word = (second.match(/[0-9a-f]{32}/)?.[0] ?? '').slice(8, 18);
    expect(word).toMatch(/^[0-9a-f]{10}$/);
    const { rows: matching } = await server.db.query<{ n: number }>(
      'select count(*)::int as n from public.products where name ilike $1',
      [`%${word}%`],
    );
    expect(matching[0]?.n).toBe(1);
    const { rows: estimate } = await server.db.query(
      `explain (format json) select 1 from public.products where name ilike '%${word}%'`,
    );
    // The plan as JSON, read as planOf() reads it (both databases answer it parsed).
    const [top] = Object.values(estimate[0] ?? {})[0] as [{ Plan: { 'Plan Rows': number } }];
    const priced = top.Plan['Plan Rows'];
    // One in a thousand (with 100 entries, one in a hundred: over a hundred products here).
    expect(priced).toBeLessThanOrEqual(Math.ceil(products / 1000) + 1);
    const plan = await planOf(
      'product_rankings',
      `select=id,name,gas,pass&name=ilike.*${word}*&order=wilson.desc,counted.desc,id.asc&limit=25`,
      { planner: 'free' },
    );
    // Not the walk down the Top order that checks every product's name (here the planner may also
    // read 15,000 products straight through: cheaper than any index at this size).
    expect(plan).toContain('"Relation Name":"products"');
    expect(plan).not.toContain('"Index Name":"product_tallies_top_idx"');
  });

  it("serves news_feed's search of the team's posts from an index", async () => {
    // The condition public.news_feed puts on admin_posts for a search (supabase/definitions/news_feed.sql):
    // without the index each search computed every published post's tsvector (40 ms with 9,000 posts).
    // news_feed runs with its owner's rights, as this does.
    await server.db.exec(`
      insert into auth.users (id, email) values ('00000000-0000-4000-8000-0000000000c3', 'team-posts@example.com');
      insert into public.admin_posts (title, content, author_id)
      select 'Team post ' || g, 'What the team wrote: ' || md5(g::text), '00000000-0000-4000-8000-0000000000c3'
      from generate_series(1, 2000) g;
      analyze public.admin_posts;`);
    const { rows } = await server.db.transaction(async (tx) => {
      return tx.query<{ plan: unknown }>(
        `explain (format json) select p.id from public.admin_posts as p
         where p.status = 'published' and (p.publish_at is null or p.publish_at <= now())
           and to_tsvector('english'::regconfig, p.title || ' ' || p.content) @@ websearch_to_tsquery('english'::regconfig, 'hemp')`,
      );
    });
    expect(JSON.stringify(Object.values(rows[0] ?? {})[0])).toContain(
      '"Index Name":"admin_posts_published_search_idx"',
    );
  });

  it("plans the Scammer Network's worded search once for any words, a plan that reads the full-text index (decision 249)", async () => {
    // Planned anew with each call's words, a prefix term cost about 20 ms of planning against 4 ms of
    // searching among 200,000 reports (bench/scale.ts); so the hits are planned generically.
    const { rows: config } = await server.db.query<{ config: string[] }>(
      `select proconfig as config from pg_proc where oid = 'private.scammer_report_word_hits(tsquery,text,tsquery,tsquery)'::regprocedure`,
    );
    expect(config[0]?.config).toContain('plan_cache_mode=force_generic_plan');
    await server.db.exec(`
      insert into auth.users (id, email) values ('00000000-0000-4000-8000-0000000000c4', 'word-hits@example.com');
      set session_replication_role = replica;
      insert into public.scammer_reports (scammer_name, scammer_description, incident_details, reporter_user_id, status)
      select 'Seller ' || md5(g::text), 'Sold nothing at all.', 'Paid upfront, then only silence.', '00000000-0000-4000-8000-0000000000c4',
        'published'
      from generate_series(1, 3000) g;
      set session_replication_role = origin;
      analyze public.scammer_reports;`);
    // One report's name, a prefix of its first word's hash and a close word for the other (as the search
    // function builds them), through the one plan.
    const [{ name } = { name: '' }] = (
      await server.db.query<{ name: string }>(`select 'Seller ' || md5('1234') as name`)
    ).rows;
    const hash = name.slice('Seller '.length);
    const { found, scans } = await server.db.transaction(async (tx) => {
      const hits = await tx.query<{ name: string }>(
        `select r.scammer_name as name from private.scammer_report_word_hits(
           to_tsquery('simple', $1 || ':*') && (plainto_tsquery('simple', 'sellr') || plainto_tsquery('simple', 'seller')),
           $2) h(id)
         join public.scammer_reports r on r.id = h.id`,
        [hash.slice(0, 12), `sellr ${hash.slice(0, 12)}`],
      );
      // The index scans this transaction made (counted before they are flushed to the statistics).
      const counted = await tx.query<{ scans: number }>(
        `select pg_stat_get_xact_numscans('public.scammer_reports_published_search_periods_idx'::regclass)::int as scans`,
      );
      return { found: hits.rows.map((row) => row.name), scans: counted.rows[0]?.scans };
    });
    expect(found).toEqual([name]);
    expect(scans).toBeGreaterThan(0);
  }, 120_000);

  it('is what the planner chooses for the worst search, even with a limit, on 20,000 comments', async () => {
    // With PostgreSQL's own prices a `limit 1` search looks cheapest as a scan stopping at the first
    // match, which computes every row's tsvector when nothing matches (0003_search_costs.sql).
    await server.db.exec(`
      insert into auth.users (id, email) values ('00000000-0000-4000-8000-0000000000c1', 'search-indexes@example.com');
      set session_replication_role = replica;
      insert into public.product_comments (user_id, product_id, content)
      select '00000000-0000-4000-8000-0000000000c1', 'product-' || (g % 100),
        concat_ws(' ', 'Comment', g, md5(g::text), 'gas pass smooth citrus pine kush haze', md5((g * 7)::text))
      from generate_series(1, 20000) g;
      set session_replication_role = origin;
      analyze public.product_comments;`);
    const free = { planner: 'free' } as const;
    expect(
      await indexesUsed('product_comments', 'select=id&content=fts.zzz%20%26%20!qqq&limit=1', free),
    ).toContain('product_comments_content_fts_idx');
    // A search matching nearly every row still stops at the first one instead.
    expect(await indexesUsed('product_comments', 'select=id&content=fts.gas&limit=1', free)).toEqual([]);
    // Seeding 20,000 rows and analysing them: on a loaded machine this passed the default 30 s.
  }, 120_000);

  it('counts and walks the name searches without parallel workers, and leaves the setting as it was (decision 271)', async () => {
    // Every count and walk of the name searches runs through private.count_first_ids: what its
    // statement sees is what the planner planned it with. Starting two workers cost 40–50 ms at 100×
    // the bench's sizes, for a count that took 0.2 ms.
    // PostgreSQL plans with two by default; PGlite, one process, with none.
    const [row] = (
      await server.db.query<{ before: string; counting: string[]; walking: string[]; after: string }>(
        `select current_setting('max_parallel_workers_per_gather') as before,
           private.count_first_ids('select current_setting(''max_parallel_workers_per_gather'')') as counting,
           private.count_first_ids('select current_setting(''max_parallel_workers_per_gather'')', true) as walking,
           current_setting('max_parallel_workers_per_gather') as after`,
      )
    ).rows;
    expect(row?.before).toBe(testDatabase() === 'postgres' ? '2' : '0');
    expect(row?.counting).toEqual(['0']);
    expect(row?.walking).toEqual(['0']);
    expect(row?.after).toBe(row?.before);
  });
});
