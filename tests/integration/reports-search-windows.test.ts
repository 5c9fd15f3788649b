// @databases: both — the search and its full-text index are SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionCalls, indexScans, tableReads } from '#tests/support/plan-reads.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInAdmin } from '#tests/support/users.ts';

/**
 * The Scammer Network's worded search, newest first, looks in the latest months first (decision 269):
 * the words are asked of the full-text index together with the months (or years) of a window, and the
 * window widens only when the page is not full. Whatever window a page comes from, it is exactly the
 * page a search of every report gives — every offset, page size, filter and close spelling — and a page
 * the latest months fill reads about a page of reports, not every match.
 */

let server: TestServer;
let reader: SignedInUser;
const REPORTER = '00000000-0000-4000-8000-0000000000e5';
/** The newest report's publication: January, so the first window (three months) crosses a year. */
const LATEST = Date.parse('2026-01-20T10:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

interface Seeded {
  id: string;
  reviewed: number;
  location: string;
}
/** Every published report about "Zorblax Farms", as the test wrote it. */
const zorblax: Seeded[] = [];

/**
 * Days before LATEST of each Zorblax report: dense in the latest weeks, ever sparser back to five years,
 * then 150 more between five and nine years old (which only the search of every report reaches).
 */
const AGES = [
  0,
  1,
  2,
  3,
  5,
  8,
  13,
  21,
  30,
  34,
  40,
  44,
  52,
  58,
  75,
  90,
  120,
  150,
  200,
  260,
  330,
  400,
  520,
  700,
  900,
  1100,
  1400,
  ...Array.from({ length: 150 }, (_, j) => 1900 + j * 9),
];

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  reader = await signedInAdmin(server, { email: 'reader@windows.example' });
  const rows = AGES.map((age, i) => ({
    id: `00000000-0000-4000-9300-${String(i + 1).padStart(12, '0')}`,
    // The fourth at the same moment as the third: the page breaks the tie by id, as the full search does.
    reviewed: LATEST - (i === 3 ? 2 : age) * DAY,
    location: i % 3 === 0 ? 'Denver, CO' : 'Seattle, WA',
  }));
  zorblax.push(...rows);
  const values = rows
    .map(
      (row) =>
        `('${row.id}', 'Zorblax Grower', 'Zorblax Farms', '${row.location}', ${amountOf(row)}, ` +
        `timestamptz '${new Date(row.reviewed).toISOString()}')`,
    )
    .join(',\n');
  // Published reports as the review leaves them, with the vocabulary's triggers. Around them, 20,000
  // about other sellers in every month of nine years (so each window holds many reports the words do not
  // find, and the planner reads through the indexes; written without triggers, the test's arrangement),
  // one of them newer than all.
  await server.db.exec(`
    insert into auth.users (id, email) values ('${REPORTER}', 'windows-reporter@example.com');
    insert into public.scammer_reports (id, scammer_name, business_name, location, amount_scammed, reviewed_at,
      scammer_description, incident_details, reporter_user_id, status)
    select v.id::uuid, v.name, v.business, v.location, v.amount, v.reviewed_at,
      'Sold product that never arrived.', 'Paid upfront, then only silence.', '${REPORTER}', 'published'
    from (values ${values}) v(id, name, business, location, amount, reviewed_at);
    -- "Quorvex Traders": none in the last 3 months, 25 from 100 days to 3.6 years before the newest
    -- report, 150 more than five years old.
    insert into public.scammer_reports (scammer_name, business_name, location, amount_scammed, reviewed_at,
      scammer_description, incident_details, reporter_user_id, status)
    select 'Quorvex Seller', 'Quorvex Traders', 'Seattle, WA', 500 + d,
      timestamptz '${new Date(LATEST).toISOString()}' - make_interval(days => d),
      'Sold product that never arrived.', 'Paid upfront, then only silence.', '${REPORTER}', 'published'
    from (select 100 + 50 * j from generate_series(0, 24) j
          union all select 1600 + 5 * j from generate_series(0, 149) j) a(d);
    set session_replication_role = replica;
    insert into public.scammer_reports (scammer_name, business_name, location, amount_scammed, reviewed_at,
      scammer_description, incident_details, reporter_user_id, status)
    select 'Other Seller ' || g, 'Quiet Shop ' || g, 'Denver, CO', g,
      timestamptz '${new Date(LATEST).toISOString()}' + interval '1 hour' - make_interval(mins => g * 237),
      'Sold product that never arrived.', 'Paid upfront, then only silence.', '${REPORTER}', 'published'
    from generate_series(0, 19999) g;
    -- One of them with a phone number, as its contact details' trigger would have listed it.
    update public.scammer_reports set contact_info = '(303) 555-0142' where scammer_name = 'Other Seller 7';
    insert into private.scammer_report_identifiers (report_id, kind, value)
    select id, 'phone', '+13035550142' from public.scammer_reports where scammer_name = 'Other Seller 7';
    set session_replication_role = origin;
    analyze public.scammer_reports;`);
}, 120_000);
afterAll(() => server?.close());

/** The amount each Zorblax report says was lost: 1,000 and its place in the list. */
function amountOf(row: Seeded): number {
  return 1000 + zorblax.indexOf(row);
}

/** The ids the search gives the reader, in its order. */
async function search(args: Record<string, unknown>): Promise<string[]> {
  const { data, error } = await reader.client.rpc('search_scammer_reports', args);
  if (error) throw new Error(error.message);
  return (data as { id: string }[]).map((row) => row.id);
}

/** The Zorblax reports a page should hold: newest published first, the id breaking ties. */
function expected(offset: number, limit: number, where: (row: Seeded) => boolean = () => true): string[] {
  return zorblax
    .filter(where)
    .sort((a, b) => b.reviewed - a.reviewed || (a.id < b.id ? -1 : 1))
    .slice(offset, offset + limit)
    .map((row) => row.id);
}

describe(`the worded search, newest first, by windows of months (${testDatabase()})`, () => {
  it('gives every page exactly, whichever window fills it', async () => {
    // Page sizes the first window fills, the year's window fills, the five years' fills, and none fills.
    for (const [offset, limit] of [
      [0, 5],
      [0, 9],
      [5, 5],
      [0, 20],
      [10, 15],
      [20, 10],
      [0, 100],
      [30, 5],
      [170, 20],
      [200, 5],
    ] as const) {
      for (const query of ['zorblax farms', 'Zorblax', 'farms zorblax']) {
        expect(
          await search({ query, result_limit: limit, result_offset: offset }),
          `${query} ${offset}+${limit}`,
        ).toEqual(expected(offset, limit));
      }
    }
  });

  it('with a close spelling, and with filters that thin the latest months', async () => {
    expect(await search({ query: 'zorblox', result_limit: 12 })).toEqual(expected(0, 12));
    const denver = (row: Seeded) => row.location === 'Denver, CO';
    for (const [offset, limit] of [
      [0, 3],
      [0, 8],
      [4, 6],
    ] as const) {
      expect(
        await search({ query: 'zorblax', location: 'denver', result_limit: limit, result_offset: offset }),
        `${offset}+${limit}`,
      ).toEqual(expected(offset, limit, denver));
    }
    const amounts = (row: Seeded) => amountOf(row) >= 1010 && amountOf(row) <= 1025;
    expect(await search({ query: 'zorblax', amount_min: 1010, amount_max: 1025, result_limit: 4 })).toEqual(
      expected(0, 4, amounts),
    );
  });

  it('the other sorts search every report, in their own order', async () => {
    // The same text everywhere: relevance ties, and publication breaks them.
    expect(
      await search({ query: 'zorblax farms', sort: 'relevance', result_limit: 10, result_offset: 3 }),
    ).toEqual(expected(3, 10));
    const byAmount = [...zorblax].sort((a, b) => amountOf(b) - amountOf(a)).map((row) => row.id);
    expect(await search({ query: 'zorblax', sort: 'amount', result_limit: 7, result_offset: 2 })).toEqual(
      byAmount.slice(2, 9),
    );
  });

  it('never lets a typed word reach the months and years the index holds', async () => {
    const { rows } = await server.db.query<{ lexemes: string[] }>(
      `select tsvector_to_array(private.scammer_report_periods(timestamptz '2026-01-20 10:00Z')) as lexemes`,
    );
    expect(rows[0]?.lexemes.sort()).toEqual([' m24312', ' y2026']);
    for (const query of ['m24312', 'y2026', '24312', 'm', 'y'])
      expect(await search({ query }), query).toEqual([]);
  });

  it('reads about a page of reports when the latest months fill it, not every match', async () => {
    const scope = { role: 'authenticated', claims: { sub: reader.id, role: 'authenticated' } } as const;
    const page = await tableReads<{ id: string }>(
      server,
      'public.scammer_reports',
      scope,
      `select id from public.search_scammer_reports(query => 'zorblax farms', result_limit => 5)`,
    );
    expect(page.rows.map((row) => row.id)).toEqual(expected(0, 5));
    // A page past the five years' window: the search of every report, which reads every match.
    const all = await tableReads<{ id: string }>(
      server,
      'public.scammer_reports',
      scope,
      `select id from public.search_scammer_reports(query => 'zorblax farms', result_limit => 5, result_offset => 30)`,
    );
    expect(all.rows.map((row) => row.id)).toEqual(expected(30, 5));
    expect(page.reads).toBeGreaterThan(0);
    // The first window's 15 matches, read by the search and again for the page (about 40 rows), against
    // the 177 matches a search of every report reads.
    expect(page.reads).toBeLessThan(zorblax.length / 3);
    expect(all.reads).toBeGreaterThanOrEqual(zorblax.length);

    // A page no window could fill at the rate of the first window's matches goes from the first window
    // to every report (decision 276); the page at offset 30 goes through the year and the five years as
    // well, each reading its matches (21 since February 2025, 27 since 2022).
    const since = (iso: string) => zorblax.filter((row) => row.reviewed >= Date.parse(iso)).length;
    const skipped = since('2025-02-01T00:00:00Z') + since('2022-01-01T00:00:00Z');
    expect(skipped).toBe(48);
    const deep = await tableReads<{ id: string }>(
      server,
      'public.scammer_reports',
      scope,
      `select id from public.search_scammer_reports(query => 'zorblax farms', result_limit => 100, result_offset => 10000)`,
    );
    expect(deep.rows).toEqual([]);
    expect(deep.reads).toBeGreaterThanOrEqual(zorblax.length);
    expect(deep.reads).toBeLessThanOrEqual(all.reads - skipped);
  });

  it('takes a window without a match as one match, not none, when it weighs the next', async () => {
    const scope = { role: 'authenticated', claims: { sub: reader.id, role: 'authenticated' } } as const;
    const { rows: quorvex } = await server.db.query<{ id: string }>(
      `select id from public.scammer_reports where scammer_name = 'Quorvex Seller' order by reviewed_at desc, id`,
    );
    expect(quorvex).toHaveLength(175);
    // No match in the last 3 months; at one, the five years would hold a page of 20 (1 × 60 / 3), and
    // they do (25). Taken as none, every report was searched: all 175 matches read (decision 278).
    const page = await tableReads<{ id: string }>(
      server,
      'public.scammer_reports',
      scope,
      `select id from public.search_scammer_reports(query => 'quorvex traders', result_limit => 20)`,
    );
    expect(page.rows).toEqual(quorvex.slice(0, 20));
    expect(page.reads).toBeGreaterThanOrEqual(25);
    expect(page.reads).toBeLessThan(quorvex.length);
    // Past what the five years hold: every report, the same page as ever.
    expect(await search({ query: 'quorvex traders', result_limit: 10, result_offset: 20 })).toEqual(
      quorvex.slice(20, 30).map((row) => row.id),
    );
  });

  it("reads a window's years of its words, not every year's (decision 279)", async () => {
    const scope = { role: 'authenticated', claims: { sub: reader.id, role: 'authenticated' } } as const;
    const byYear = 'public.scammer_reports_published_year_words_idx';
    const everyYear = 'public.scammer_reports_published_search_periods_idx';
    const scans = async (statement: string) => {
      const year = await indexScans<{ id: string }>(server, byYear, scope, statement);
      const every = await indexScans<{ id: string }>(server, everyYear, scope, statement);
      expect(every.rows).toEqual(year.rows);
      return { ids: year.rows.map((row) => row.id), byYear: year.scans, everyYear: every.scans };
    };
    // The last 3 months fill the page (they cross into 2025: two years' lists): the words by year only.
    const first = await scans(
      `select id from public.search_scammer_reports(query => 'zorblax farms', result_limit => 5)`,
    );
    expect(first).toEqual({ ids: expected(0, 5), byYear: 1, everyYear: 0 });
    // The 3 months and the year by year (two years each, of the ten the reports span: 2 × 2 < 10); the
    // five years through the words' own index (5 × 5 ≥ 10: by year, each word five times over half the
    // reports), as every report is.
    const deep = await scans(
      `select id from public.search_scammer_reports(query => 'zorblax farms', result_limit => 5, result_offset => 30)`,
    );
    expect(deep).toEqual({ ids: expected(30, 5), byYear: 2, everyYear: 2 });
    // A close spelling's words by year too.
    const close = await scans(
      `select id from public.search_scammer_reports(query => 'zorblox', result_limit => 12)`,
    );
    expect(close).toEqual({ ids: expected(0, 12), byYear: 1, everyYear: 0 });
    // The amount order has no windows: every report at once.
    const byAmount = await scans(
      `select id from public.search_scammer_reports(query => 'zorblax', sort => 'amount', result_limit => 3)`,
    );
    expect(byAmount).toMatchObject({ byYear: 0, everyYear: 1 });
    expect(byAmount.ids).toHaveLength(3);
  });

  it('asks every year for a word too long for the index of words by year', async () => {
    // "zq" completes to a word of 1,202 bytes (400 three-byte letters after it), past the 1,000 bytes the
    // index of words by year holds; a report named "Zq" a day older. A page of one is the long word's
    // report: asked by year without it, the older report would fill the page.
    await server.db.exec(`
      insert into public.scammer_reports (id, scammer_name, contact_info, location, amount_scammed, reviewed_at,
        scammer_description, incident_details, reporter_user_id, status)
      values
        ('00000000-0000-4000-9400-000000000001', 'Longword Seller', 'zq' || repeat('漢', 400), 'Denver, CO', 10,
          timestamptz '${new Date(LATEST - DAY).toISOString()}', 'Sold product that never arrived.',
          'Paid upfront, then only silence.', '${REPORTER}', 'published'),
        ('00000000-0000-4000-9400-000000000002', 'Zq Trader', null, 'Denver, CO', 10,
          timestamptz '${new Date(LATEST - 2 * DAY).toISOString()}', 'Sold product that never arrived.',
          'Paid upfront, then only silence.', '${REPORTER}', 'published');`);
    const { rows } = await server.db.query<{ bytes: number; indexed: number }>(
      `select octet_length(t.lexeme) as bytes,
         (select count(*)::int from unnest(private.scammer_report_year_words(r.search_text, r.reviewed_at)) y
          where y.lexeme like 'zq%') as indexed
       from public.scammer_reports r, unnest(to_tsvector('simple', r.search_text)) t
       where r.id = '00000000-0000-4000-9400-000000000001' and t.lexeme like 'zq%'`,
    );
    expect(rows).toEqual([{ bytes: 1202, indexed: 0 }]);
    expect(await search({ query: 'zq', result_limit: 1 })).toEqual(['00000000-0000-4000-9400-000000000001']);
    expect(await search({ query: 'zq', result_limit: 2 })).toEqual([
      '00000000-0000-4000-9400-000000000001',
      '00000000-0000-4000-9400-000000000002',
    ]);
  });

  it('asks once whether the query holds a contact identifier, not once for each window', async () => {
    const scope = { role: 'authenticated', claims: { sub: reader.id, role: 'authenticated' } } as const;
    const identifiers = 'private.query_identifiers(text)';
    // Offset 30: all four windows searched (the 3 months' 15 matches, at their rate, would fill the
    // year, and so on; decision 276), and no identifier in the words (decision 277).
    const worded = await functionCalls<{ id: string }>(
      server,
      identifiers,
      scope,
      `select id from public.search_scammer_reports(query => 'zorblax farms', result_limit => 5, result_offset => 30)`,
    );
    expect(worded.rows.map((row) => row.id)).toEqual(expected(30, 5));
    expect(worded.calls).toBe(1);
    // A query with an identifier searches every report at once, and looks its identifiers up there.
    const phone = await functionCalls<{ id: string }>(
      server,
      identifiers,
      scope,
      `select id from public.search_scammer_reports(query => '+1 (303) 555-0142')`,
    );
    const { rows: seller } = await server.db.query<{ id: string }>(
      `select id from public.scammer_reports where scammer_name = 'Other Seller 7'`,
    );
    expect(phone.rows).toEqual(seller);
    expect(phone.calls).toBe(2);
  });
});
