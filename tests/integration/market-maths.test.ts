// @databases: both — the index maths are SQL (market_compute.sql).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#server/paths.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';

/**
 * The index maths of supabase/definitions/market_compute.sql (decision 127) against hand-computed
 * examples: the base, a quarterly rebalance, a constituent swap, a missing close, a revision, the
 * shipped flower history, and the verify check. Each example is an index of its own with its own
 * securities, so the examples do not see each other.
 */

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let counter = 0;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await database.db.query<T>(text, params)).rows;

interface Point {
  date: string;
  value: string;
  carried: boolean;
  revision: number;
  detail: string | null;
  source: string;
}

/** An equity index of its own with securities T<n>A, T<n>B, …; `closes` maps ticker letter → date → close. */
async function equityIndex(
  letters: string[],
  closes: Record<string, Record<string, number>>,
  constituents?: { letter: string; from: string; to?: string }[],
) {
  counter += 1;
  const slug = `test-equity-${counter}-${Date.now() % 100000}`;
  const prefix = `T${counter}X${Date.now() % 1000}`;
  const ticker = (letter: string) => `${prefix}${letter}`;
  await sql(
    `insert into public.market_indices (slug, kind, name, description, methodology) values ($1, 'equity', $1, 'test', 'test')`,
    [slug],
  );
  for (const letter of letters) {
    await sql(`insert into public.market_securities (ticker, company, venue) values ($1, $1, 'TEST')`, [
      ticker(letter),
    ]);
  }
  // constituents first: each change recomputes the index, and without closes there is nothing yet
  const members: { letter: string; from: string; to?: string }[] =
    constituents ?? letters.map((letter) => ({ letter, from: '2000-01-01' }));
  for (const member of members) {
    await sql(
      `insert into public.market_constituents (index_slug, ticker, effective_from, effective_to) values ($1, $2, $3, $4)`,
      [slug, ticker(member.letter), member.from, member.to ?? null],
    );
  }
  for (const [letter, byDate] of Object.entries(closes)) {
    for (const [date, close] of Object.entries(byDate)) {
      await sql(
        `insert into public.market_closes (ticker, date, close, source) values ($1, $2, $3, 'test feed')`,
        [ticker(letter), date, close],
      );
    }
  }
  await sql('select private.market_store($1)', [slug]);
  return { slug, ticker };
}

const points = (slug: string) =>
  sql<Point>(
    `select date::text, value::text, carried, revision, detail, source from public.index_points
      where index_slug = $1 order by date`,
    [slug],
  );

describe('equity index (equal-weighted, base 100, quarterly rebalance, divisor)', () => {
  it('starts at 100 and moves by the mean relative change; a quarter rebalance does not move it', async () => {
    const { slug } = await equityIndex(['A', 'B'], {
      A: { '2025-03-28': 10, '2025-03-31': 11, '2025-04-01': 12, '2025-04-02': 12 },
      B: { '2025-03-28': 20, '2025-03-31': 20, '2025-04-01': 18, '2025-04-02': 19.8 },
    });
    const rows = await points(slug);
    // 100; 100·(11/10+20/20)/2 = 105; 04-01 (new quarter, old holdings) 100·(12/10+18/20)/2 = 105;
    // rebalanced at 105: 105·(12/12+19.8/18)/2 = 110.25
    expect(rows.map((row) => [row.date, row.value])).toEqual([
      ['2025-03-28', '100.000000'],
      ['2025-03-31', '105.000000'],
      ['2025-04-01', '105.000000'],
      ['2025-04-02', '110.250000'],
    ]);
    expect(rows.every((row) => !row.carried && row.revision === 1 && row.source.length > 0)).toBe(true);

    // These are the equity methodology's worked example (issue 35): its bold figures are these levels.
    const [index] = await sql<{ methodology: string }>(
      `select methodology from public.market_indices where slug = 'cannabis-equity'`,
    );
    const text = index?.methodology ?? '';
    const example = text.slice(text.indexOf('## Worked example'), text.indexOf('## Sources'));
    expect(example).toContain('A = 10, B = 20');
    expect(example).toContain('A = 12, B = 19.8');
    const bold = [...example.matchAll(/\*\*([0-9.]+)\*\*/g)].map((match) => Number(match[1]));
    expect(bold).toEqual(rows.slice(1).map((row) => Number(row.value)));
  });

  it('without the rebalance the last day would differ (the rebalance is real)', async () => {
    // Same prices within one quarter: no rebalance on day 3, so day 4 = 100·(12/10+19.8/20)/2 = 109.5
    const { slug } = await equityIndex(['A', 'B'], {
      A: { '2025-05-05': 10, '2025-05-06': 11, '2025-05-07': 12, '2025-05-08': 12 },
      B: { '2025-05-05': 20, '2025-05-06': 20, '2025-05-07': 18, '2025-05-08': 19.8 },
    });
    expect((await points(slug)).map((row) => row.value)).toEqual([
      '100.000000',
      '105.000000',
      '105.000000',
      '109.500000',
    ]);
  });

  it('swaps a constituent at its effective date without moving the index', async () => {
    const { slug } = await equityIndex(
      ['A', 'B', 'C'],
      {
        A: { '2025-05-05': 10, '2025-05-06': 11, '2025-05-07': 11 },
        B: { '2025-05-05': 20, '2025-05-06': 22, '2025-05-07': 44 },
        C: { '2025-05-05': 5, '2025-05-06': 6, '2025-05-07': 6.6 },
      },
      [
        { letter: 'A', from: '2000-01-01' },
        { letter: 'B', from: '2000-01-01', to: '2025-05-06' },
        { letter: 'C', from: '2025-05-06' },
      ],
    );
    // 05-05: A, B → 100. 05-06 (swap day, old holdings): 100·(11/10+22/20)/2 = 110, then A and C at 110.
    // 05-07: 110·(11/11+6.6/6)/2 = 115.5 (B's doubling no longer counts)
    expect((await points(slug)).map((row) => [row.date, row.value])).toEqual([
      ['2025-05-05', '100.000000'],
      ['2025-05-06', '110.000000'],
      ['2025-05-07', '115.500000'],
    ]);
  });

  it('carries a missing close, visibly', async () => {
    const { slug, ticker } = await equityIndex(['A', 'B'], {
      A: { '2025-05-05': 10, '2025-05-06': 12 },
      B: { '2025-05-05': 20 },
    });
    const rows = await points(slug);
    // B has no close on 05-06: its 05-05 close counts, 100·(12/10+20/20)/2 = 110
    expect(rows.map((row) => [row.date, row.value, row.carried])).toEqual([
      ['2025-05-05', '100.000000', false],
      ['2025-05-06', '110.000000', true],
    ]);
    expect(rows[1]?.detail).toBe(`carried closes: ${ticker('B')} 2025-05-05`);
  });

  it('a corrected close becomes a new revision of the close and of the points it changes', async () => {
    const { slug, ticker } = await equityIndex(['A', 'B'], {
      A: { '2025-05-05': 10, '2025-05-06': 11, '2025-05-07': 12 },
      B: { '2025-05-05': 20, '2025-05-06': 20, '2025-05-07': 20 },
    });
    const [result] = await sql<{ r: { ok: boolean; revised: number; new: number; unchanged: number } }>(
      'select public.market_import_closes($1::jsonb, true) as r',
      [
        JSON.stringify([
          { ticker: ticker('A'), date: '2025-05-06', close: '13', source: 'corrected feed' },
          { ticker: ticker('B'), date: '2025-05-07', close: '20', source: 'test feed' },
        ]),
      ],
    );
    expect(result?.r).toMatchObject({ ok: true, revised: 1, new: 0, unchanged: 1 });
    const rows = await points(slug);
    // 05-06: 100·(13/10+1)/2 = 115 (was 105); 05-07 unchanged at 100·(12/10+1)/2 = 110
    expect(rows.map((row) => [row.date, row.value, row.revision])).toEqual([
      ['2025-05-05', '100.000000', 1],
      ['2025-05-06', '115.000000', 2],
      ['2025-05-07', '110.000000', 1],
    ]);
    expect(
      await sql('select revision, value::text from public.index_point_revisions where index_slug = $1', [
        slug,
      ]),
    ).toEqual([{ revision: 1, value: '105.000000' }]);
    expect(
      await sql(
        `select c.revision, c.close::text, c.source, h.close::text as previous, h.source as previous_source
           from public.market_closes c join public.market_close_revisions h using (ticker, date)
          where c.ticker = $1 and c.date = '2025-05-06'`,
        [ticker('A')],
      ),
    ).toEqual([
      {
        revision: 2,
        close: '13.0000',
        source: 'corrected feed',
        previous: '11.0000',
        previous_source: 'test feed',
      },
    ]);
    const [verify] = await sql<{ v: { ok: boolean; checked: number } }>(
      'select public.market_verify($1) as v',
      [slug],
    );
    expect(verify?.v).toMatchObject({ ok: true, checked: 3 });
  });
});

describe('flower price index (shipped regulator data)', () => {
  it('holds supabase/data/flower-prices.csv row for row', async () => {
    const csv = parse(await readFile(join(PROJECT_ROOT, 'supabase/data/flower-prices.csv'), 'utf8'), {
      columns: true,
    }) as Record<string, string>[];
    const stored = await sql<Record<string, string>>(
      `select state, series, to_char(period, 'YYYY-MM-DD') as period, unit, value::float8::text as value, statistic,
              source, coalesce(note, '') as note
         from public.flower_price_observations order by id`,
    );
    expect(stored).toEqual(
      csv.map((row) => ({
        state: row.state,
        series: row.series,
        period: row.period?.length === 7 ? `${row.period}-01` : row.period,
        unit: row.unit,
        value: String(Number(row.value)),
        statistic: row.statistic,
        source: row.source,
        note: row.note,
      })),
    );
    const universe = parse(await readFile(join(PROJECT_ROOT, 'supabase/data/equity-universe.csv'), 'utf8'), {
      columns: true,
    }) as Record<string, string>[];
    const securities = await sql<{ ticker: string }>(
      'select ticker from public.market_securities order by ticker',
    );
    expect(securities.map((row) => row.ticker)).toEqual(
      expect.arrayContaining(universe.map((row) => row.ticker)),
    );
  });

  it('ships every CSV point with its source, unit, statistic and $/gram', async () => {
    const rows = await sql<{ n: number; states: string; sourced: number }>(
      `select count(*)::int as n, string_agg(distinct state, ',' order by state) as states,
              count(*) filter (where source <> '')::int as sourced
         from public.flower_price_observations`,
    );
    expect(rows[0]).toEqual({ n: 48, states: 'CO,IL,MA,MI,OR', sourced: 48 });
    const [co] = await sql<{ usd_per_gram: string; unit: string; statistic: string }>(
      `select usd_per_gram::text, unit, statistic from public.flower_price_observations
        where state = 'CO' and period = '2018-10-01'`,
    );
    // 759 USD/lb / 453.59237 g = 1.6733 USD/g
    expect(co).toEqual({ usd_per_gram: '1.6733', unit: 'USD/lb', statistic: 'median (AMR)' });
  });

  it('is chain-linked from each state’s own previous point, gaps carried', async () => {
    const rows = await points('flower-price');
    const at = (date: string) => rows.find((row) => row.date === date);
    expect(at('2018-10-01')).toMatchObject({ value: '100.000000', carried: false }); // CO and MA first points
    expect(at('2019-01-01')).toMatchObject({ value: '102.898551', carried: false }); // 100·781/759
    // 2020 Q1: MI 512.05 is a first point (not compared); MA's latest 14.57 (Feb) against 14.08 (2018 Q4)
    expect(at('2020-01-01')).toMatchObject({ value: '136.201099', carried: false });
    // 2024 Q1: nobody reported; 2023 Q4's level is kept
    expect(at('2023-10-01')?.value).toBe('19.679171');
    expect(at('2024-01-01')).toMatchObject({
      value: '19.679171',
      carried: true,
      detail: 'carried: no state reported',
    });
    expect(rows.every((row) => row.source.length > 0)).toBe(true);
    expect(rows[0]?.date).toBe('2018-10-01');
  });

  it('verify recomputes every point and finds a tampered one', async () => {
    const [ok] = await sql<{ v: { ok: boolean; checked: number } }>(
      "select public.market_verify('flower-price') as v",
    );
    expect(ok?.v.ok).toBe(true);
    expect(ok?.v.checked).toBeGreaterThan(25);
    await sql(
      `update public.index_points set value = value + 1 where index_slug = 'flower-price' and date = '2019-01-01'`,
    );
    const [bad] = await sql<{ v: { ok: boolean; mismatches: unknown[] } }>(
      "select public.market_verify('flower-price') as v",
    );
    expect(bad?.v).toMatchObject({
      ok: false,
      mismatches: [{ date: '2019-01-01', stored: 103.898551, computed: 102.898551 }],
    });
    await sql("select private.market_store('flower-price')");
    const [fixed] = await sql<{ v: { ok: boolean } }>("select public.market_verify('flower-price') as v");
    expect(fixed?.v.ok).toBe(true);
  });
});
