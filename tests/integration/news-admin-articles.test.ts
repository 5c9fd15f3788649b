// @databases: both — the search's plans are PostgreSQL's, and both databases plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableReads, withOverpricedWord } from '#tests/support/plan-reads.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInAdmin, signedInUser } from '#tests/support/users.ts';

/**
 * The admins' article list and search (decision 257): `public.admin_find_articles` lists every article
 * newest first, hidden ones included, and finds titles holding the words typed, in any case and
 * whatever the punctuation, whichever way it reads them (few matches sorted, many read down
 * `news_articles_published_idx`, a search too short for trigrams); only admins may call it; a rare
 * word the statistics price as common is not looked for by reading every article newest first; and a
 * common word fills its page from the newest few pages, and two common words that never meet are not
 * looked for in every title holding both (decision 266), nor in every title holding the trigrams
 * across them (decision 267).
 */

let server: TestServer;
let admin: SignedInUser;
let member: SignedInUser;
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await server.db.query<T>(text, params)).rows;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  admin = await signedInAdmin(server, { email: 'admin@articles.example' });
  member = await signedInUser(server, { email: 'member@articles.example' });
  // 12,000 stories no two titles alike, 1,500 "Hemp market" titles (more than the search's cap, so they
  // are read newest first), 40 "Ohio’s rules" (fewer: sorted); every seventh article hidden.
  await server.db.exec(`
    insert into public.news_articles (id, story_id, title, url, url_key, source_name, category, published_at,
      fingerprint, hidden)
    select a.id, a.id, a.title, 'https://example.com/' || a.g, 'example.com/' || a.g, 'Example', 'Industry',
      timestamptz '2026-11-01' + make_interval(mins => (a.g * 7919) % 40000), private.news_fingerprint(a.title),
      a.g % 7 = 0
    from (
      select g, md5('article' || g)::uuid as id,
        case when g <= 1500 then 'Hemp market: ' || md5('hemp' || g)
             when g <= 1540 then 'Ohio’s rules, part ' || g
             else 'Story ' || md5('story' || g) end as title
      from generate_series(1, 13540) g
    ) a;
    analyze public.news_articles;`);
}, 120_000);
afterAll(() => server?.close());

/** What a direct read of the table returns (as the superuser): the words in the title's fingerprint. */
async function expected(words: string | null, rows = 30): Promise<string[]> {
  const found = await sql<{ id: string }>(
    `select id from public.news_articles
     where $1::text is null or fingerprint like '%' || $1 || '%'
     order by published_at desc, id desc limit $2`,
    [words, rows],
  );
  return found.map((row) => row.id);
}

async function found(q: string | null, rows = 30): Promise<string[]> {
  const { data, error } = await admin.client.rpc('admin_find_articles', { q, max_rows: rows });
  expect(error).toBeNull();
  return ((data ?? []) as { id: string }[]).map((row) => row.id);
}

/** How many articles a statement reads, run as the admin. */
async function articleReads(statement: string): Promise<{ reads: number; ids: string[] }> {
  const scope = { role: 'authenticated', claims: { sub: admin.id, role: 'authenticated' } } as const;
  const { reads, rows } = await tableReads<{ id: string }>(server, 'public.news_articles', scope, statement);
  return { reads, ids: rows.map((row) => row.id) };
}

describe(`the admins' articles (${testDatabase()})`, () => {
  it('lists the 30 newest articles, hidden ones included', async () => {
    const newest = await found(null);
    expect(newest).toEqual(await expected(null));
    const [hidden] = await sql<{ n: number }>(
      'select count(*)::int as n from public.news_articles where id = any($1::uuid[]) and hidden',
      [newest],
    );
    expect(hidden?.n).toBeGreaterThan(0);
    expect(await found('   ')).toEqual(newest);
  });

  it.each([
    ['ohio s rules', 'ohio s rules', 30],
    ['OHIO’S RULES, part 15', 'ohio s rules part 15', 30],
    ['hemp market', 'hemp market', 30],
    ['mp MARK', 'mp mark', 30],
    ['market hemp', 'market hemp', 30],
    // Where words meet, a key of the last three characters of the one and the first three of the next
    // (decision 267), but not of a first word that may end a title's word, or a last that may start
    // one, with fewer than three.
    ['hio s rul', 'hio s rul', 30],
    ['io s ru', 'io s ru', 30],
    ['ohio s rules part 1', 'ohio s rules part 1', 30],
    ['emp market', 'emp market', 30],
    ['Hemp-Market:', 'hemp market', 90],
    ['ohio', 'ohio', 30],
    ['he', 'he', 30],
    ['zz', 'zz', 30],
    ['no such title', 'no such title', 30],
  ])('finds %j as the title words %j', async (q, words, rows) => {
    const want = await expected(words, rows);
    expect(await found(q, rows)).toEqual(want);
    if (words === 'hemp market') expect(want).toHaveLength(rows);
  });

  it('finds nothing for punctuation alone', async () => {
    expect(await found('?!…')).toEqual([]);
  });

  it('refuses members, visitors and searches past the box', async () => {
    const asMember = await member.client.rpc('admin_find_articles', { q: 'hemp' });
    expect(asMember.error?.code).toBe('42501');
    expect(asMember.error?.message).toBe('Only admins can list every article.');
    const { data: hidden } = await member.client
      .from('news_articles')
      .select('id')
      .eq('hidden', true)
      .limit(1);
    expect(hidden).toEqual([]);
    const tooLong = await admin.client.rpc('admin_find_articles', { q: 'x'.repeat(201) });
    expect(tooLong.error?.code).toBe('22023');
    expect(tooLong.error?.message).toBe('Search for at most 200 characters.');
    const tooMany = await admin.client.rpc('admin_find_articles', { max_rows: 1001 });
    expect(tooMany.error?.message).toBe('Ask for 1 to 1000 articles.');
  });

  it('does not read every article newest first for a rare word the statistics price as common', async () => {
    // Statistics taken while nine titles in ten held "zebra", then every title but one changed back:
    // the planner prices "zebra" as nine articles in ten, and one article has it.
    const [keep = ''] = await expected('story', 1);
    const target = { table: 'public.news_articles', column: 'fingerprint', where: `title like 'Story %'` };
    await withOverpricedWord(server, { ...target, keep }, async () => {
      const want = await expected('zebra');
      expect(want).toEqual([keep]);
      // The premise: a direct read, planned from that price, walks the articles newest first and reads
      // every one on the way.
      const plain = await articleReads(
        `select id from public.news_articles where fingerprint like '%zebra%'
         order by published_at desc, id desc limit 30`,
      );
      expect(plain.ids).toEqual(want);
      expect(plain.reads).toBeGreaterThan(13_000);
      // The search walks the newest 600 (twenty pages' worth, decision 266), then counts through the
      // trigram index and sorts its one match: a few hundred reads, not thousands.
      const search = await articleReads(`select id from public.admin_find_articles('zebra')`);
      expect(search.ids).toEqual(want);
      expect(search.reads).toBeGreaterThan(0);
      expect(search.reads).toBeLessThan(20 * 30 + 20);
    });
    // Three updates of thousands of rows and two analyses, slow on PGlite (its GIN indexes): as long
    // as the other tests that overprice a word may take.
  }, 120_000);

  it('reads the list, and a common word, newest first and stops within a few pages', async () => {
    const list = await articleReads('select id from public.admin_find_articles()');
    expect(list.ids).toEqual(await expected(null));
    expect(list.reads).toBeGreaterThan(0);
    expect(list.reads).toBeLessThan(100);
    const common = await articleReads(`select id from public.admin_find_articles('hemp market')`);
    expect(common.ids).toEqual(await expected('hemp market'));
    // One title in nine is about the hemp market: the walk of the newest 600 (twenty pages' worth,
    // decision 266) fills the page before its end, so nothing is counted (that would read up to the
    // cap, 637 here, first); then the page's 30 rows.
    expect(common.reads).toBeGreaterThan(30 + 30);
    expect(common.reads).toBeLessThanOrEqual(600 + 30);
  });

  it('does not look in every title that holds two common words for where they meet', async () => {
    // "market" and "hemp" are each in 1,500 titles, never in that order: the trigrams across the two
    // words ("t0h", "0he" of "market0hemp", decision 266) are in no title, so after the short walk the
    // count offers nothing, where a trigram index within words offered all 1,500.
    const [both] = await sql<{ n: number }>(
      `select count(*)::int as n from public.news_articles where fingerprint like '%market%' and fingerprint like '%hemp%'`,
    );
    expect(both?.n).toBe(1_500);
    const apart = await articleReads(`select id from public.admin_find_articles('market hemp')`);
    expect(apart.ids).toEqual([]);
    expect(apart.reads).toBeGreaterThanOrEqual(600);
    expect(apart.reads).toBeLessThan(600 + 20);
  });

  it('does not look in every title that holds the trigrams across two words for where they meet', async () => {
    // 300 older titles "Taxes market rules …" hold every trigram of "rules0market" ("es0" and "s0m"
    // where "taxes" meets "market") and never "rules market": the joined trigrams offer all 300. The
    // key of the meeting, "les mar", is in none (decision 267).
    await server.db.exec(`
      insert into public.news_articles (id, story_id, title, url, url_key, source_name, category,
        published_at, fingerprint)
      select a.id, a.id, a.title, 'https://example.com/taxes/' || a.g, 'example.com/taxes/' || a.g, 'Example',
        'Industry', timestamptz '2020-01-01' + make_interval(mins => a.g), private.news_fingerprint(a.title)
      from (select g, md5('taxes' || g)::uuid as id, 'Taxes market rules ' || md5('taxes title' || g) as title
        from generate_series(1, 300) g) a;
      analyze public.news_articles;`);
    try {
      const joined = await articleReads(
        `select id from public.news_articles a
         where private.news_fingerprint_joined(a.fingerprint) like '%rules0market%'
           and a.fingerprint like '%rules market%'`,
      );
      expect(joined.ids).toEqual([]);
      expect(joined.reads).toBeGreaterThanOrEqual(300);
      const search = await articleReads(`select id from public.admin_find_articles('rules market')`);
      expect(search.ids).toEqual([]);
      // The walk of the newest 600, and nothing counted.
      expect(search.reads).toBeGreaterThanOrEqual(600);
      expect(search.reads).toBeLessThan(600 + 20);
      expect(await found('taxes market rules', 300)).toEqual(await expected('taxes market rules', 300));
    } finally {
      await server.db.exec(`delete from public.news_articles where url like 'https://example.com/taxes/%';
        analyze public.news_articles;`);
    }
  });
});
