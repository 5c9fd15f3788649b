// @databases: both — the chain-linked flower index is SQL (market_compute.sql).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#server/paths.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import {
  HEADLINE_RANGE,
  NORMAL_INTERVAL,
  observationLabel,
  rangeText,
} from '#web/features/market/market-data.ts';

/**
 * The Flower Price Index is chain-linked (decision 205): hand-made series (a state joining, a state
 * leaving, a state changing statistic, a gap) give hand-computed values; with the shipped CSV no
 * quarter's move exceeds the largest move of a state that contributed to it; the methodology page's
 * worked example is recomputed from the same numbers.
 */

let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

interface Level {
  date: string;
  value: string;
  carried: boolean;
  detail: string;
}

class Rollback extends Error {}

/** The index computed from `observations` alone (the shipped rows removed), all in a rolled-back transaction. */
async function levelsOf(observations: [string, string, number, string][]): Promise<Level[]> {
  let result: Level[] = [];
  await database.db
    .transaction(async (tx) => {
      await tx.query('delete from public.flower_price_observations');
      for (const [state, period, value, statistic] of observations) {
        await tx.query(
          `insert into public.flower_price_observations (state, series, period, unit, value, statistic, source)
           values ($1, 'test series', $2, 'USD/g', $3, $4, 'hand-made')`,
          [state, period, value, statistic],
        );
      }
      result = (
        await tx.query<Level>(
          `select date::text, value::text, carried, detail from private.market_flower_levels('flower-price')
            order by date`,
        )
      ).rows;
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return result;
}

describe('flower index: hand-made series', () => {
  it('links each state to its own previous point: joining, leaving, a gap, a changed statistic', async () => {
    const levels = await levelsOf([
      // 2030 Q1: A and B start (first points): 100
      ['ZA', '2030-01-01', 10, 'average'],
      ['ZB', '2030-02-01', 20, 'average'],
      // Q2: A 1.1, B 1.1 → 110; C joins (first point, no move)
      ['ZA', '2030-04-01', 11, 'average'],
      ['ZB', '2030-04-01', 22, 'average'],
      ['ZC', '2030-05-01', 5, 'average'],
      // Q3: B missing; A 11.55/11 = 1.05, C 5.75/5 = 1.15 → 110 × 1.10 = 121
      ['ZA', '2030-07-01', 11.55, 'average'],
      ['ZC', '2030-07-01', 5.75, 'average'],
      // Q4: B back after a gap, 24.2/22 = 1.1; A switches to median (linked, not compared) → 133.1
      ['ZB', '2030-10-01', 24.2, 'average'],
      ['ZA', '2030-10-01', 100, 'median'],
      // 2031 Q1: B has left; A median 110/100 = 1.1, C 5.75/5.75 = 1 → 133.1 × 1.05 = 139.755
      ['ZA', '2031-01-01', 110, 'median'],
      ['ZC', '2031-03-01', 5.75, 'average'],
      // Q2: nobody reports → carried; Q3: only D joins → carried (no comparable point)
      ['ZD', '2031-07-01', 3, 'average'],
    ]);
    expect(levels.map((level) => [level.date, level.value, level.carried])).toEqual([
      ['2030-01-01', '100.000000', false],
      ['2030-04-01', '110.000000', false],
      ['2030-07-01', '121.000000', false],
      ['2030-10-01', '133.100000', false],
      ['2031-01-01', '139.755000', false],
      ['2031-04-01', '139.755000', true],
      ['2031-07-01', '139.755000', true],
    ]);
    expect(levels[1]?.detail).toBe(
      'contributing: ZA 11.0000/10.0000, ZB 22.0000/20.0000 (2 of 4 states); not compared: ZC (first point)',
    );
    expect(levels[3]?.detail).toBe(
      'contributing: ZB 24.2000/22.0000 (1 of 4 states); not compared: ZA (average -> median, linked)',
    );
    expect(levels[5]?.detail).toBe('carried: no state reported');
    expect(levels[6]?.detail).toBe(
      'carried: no state comparable with its previous point; not compared: ZD (first point)',
    );
  });

  it('uses the latest point of a quarter and rounds each chained level to 6 decimals', async () => {
    const levels = await levelsOf([
      ['ZA', '2030-01-01', 3, 'average'],
      ['ZA', '2030-04-01', 5, 'average'],
      ['ZA', '2030-06-01', 4, 'average'], // latest in Q2 counts: 4/3
      ['ZA', '2030-07-01', 5, 'average'], // 133.333333 × 5/4 = 166.66666625 → 166.666666
    ]);
    expect(levels.map((level) => level.value)).toEqual(['100.000000', '133.333333', '166.666666']);
  });
});

interface CsvRow {
  state: string;
  series: string;
  period: string;
  unit: string;
  value: string;
  statistic: string;
}

/** Each state's own quarter-on-quarter relative changes from the CSV, computed here independently of SQL. */
async function stateMoves(): Promise<Map<string, number[]>> {
  const csv = parse(await readFile(join(PROJECT_ROOT, 'supabase/data/flower-prices.csv'), 'utf8'), {
    columns: true,
  }) as CsvRow[];
  const quarterOf = (period: string) => {
    const [year, month] = period.split('-').map(Number) as [number, number];
    return `${year}-${String(Math.floor((month - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
  };
  const latest = new Map<string, CsvRow>();
  for (const row of csv) {
    const key = `${row.state}|${quarterOf(row.period)}`;
    const seen = latest.get(key);
    if (!seen || seen.period < row.period) latest.set(key, row);
  }
  const moves = new Map<string, number[]>();
  const last = new Map<string, CsvRow>();
  const quarterKey = (key: string) => key.slice(key.indexOf('|') + 1);
  for (const key of [...latest.keys()].sort((a, b) => quarterKey(a).localeCompare(quarterKey(b)))) {
    const [state, quarter] = key.split('|') as [string, string];
    const row = latest.get(key) as CsvRow;
    const previous = last.get(state);
    if (
      previous &&
      previous.unit === row.unit &&
      previous.statistic === row.statistic &&
      previous.series === row.series
    ) {
      moves.set(quarter, [...(moves.get(quarter) ?? []), Number(row.value) / Number(previous.value)]);
    }
    last.set(state, row);
  }
  return moves;
}

describe('flower index: shipped data', () => {
  it('never moves further in a quarter than the state that moved most', async () => {
    const moves = await stateMoves();
    const rows = (
      await database.db.query<{ date: string; value: string; carried: boolean }>(
        `select date::text, value::text, carried from public.index_points
          where index_slug = 'flower-price' order by date`,
      )
    ).rows;
    expect(rows.length).toBeGreaterThan(25);
    let compared = 0;
    for (const [i, row] of rows.entries()) {
      const before = rows[i - 1];
      if (!before) continue;
      const move = Math.abs(Number(row.value) / Number(before.value) - 1);
      const stateRatios = moves.get(row.date) ?? [];
      if (stateRatios.length === 0) {
        expect(move, row.date).toBe(0);
        expect(row.carried, row.date).toBe(true);
        continue;
      }
      const largest = Math.max(...stateRatios.map((ratio) => Math.abs(ratio - 1)));
      expect(move, row.date).toBeLessThanOrEqual(largest + 1e-6);
      // and the level is the previous one times the mean of the state ratios, to rounding
      const mean = stateRatios.reduce((sum, ratio) => sum + ratio, 0) / stateRatios.length;
      expect(Number(row.value)).toBeCloseTo(Number(before.value) * mean, 5);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(20);
    // the mix-driven swings of the old averaging are gone: 2022 Q1 → Q2 → Q3 follow Colorado, Michigan, CO+MA
    const at = (date: string) => rows.find((row) => row.date === date)?.value;
    expect([at('2022-01-01'), at('2022-04-01'), at('2022-07-01')]).toEqual([
      '95.861135',
      '36.258894',
      '24.969066',
    ]);
  });

  it('the methodology page’s worked example recomputes from the same numbers', async () => {
    const [index] = (
      await database.db.query<{ methodology: string }>(
        `select methodology from public.market_indices where slug = 'flower-price'`,
      )
    ).rows;
    const text = index?.methodology ?? '';
    expect(text).not.toContain('Units and statistics cancel');
    expect(text).not.toContain('published no new rate');
    const example = text.slice(text.indexOf('## Worked example'), text.indexOf('## Sources'));
    // every bold figure of the example is a stored level, and each is recomputed here from the CSV prices
    const round6 = (value: number) => (Math.round(value * 1e6) / 1e6).toFixed(6);
    let level = 100;
    const chain: [string, number][] = [
      ['2019-01-01', 781 / 759],
      ['2019-04-01', 806 / 781],
      ['2019-07-01', 850 / 806],
      ['2019-10-01', 999 / 850],
      ['2020-01-01', 14.57 / 14.08],
    ];
    const expected: string[] = ['100'];
    for (const [, ratio] of chain) {
      level = Number(round6(level * ratio));
      expected.push(round6(level));
    }
    const stored = (
      await database.db.query<{ date: string; value: string }>(
        `select date::text, value::text from public.index_points where index_slug = 'flower-price'
          and date in ('2020-10-01', '2021-01-01')`,
      )
    ).rows;
    const q4 = Number(stored.find((row) => row.date === '2020-10-01')?.value);
    expected.push(round6(q4 * ((1721 / 1316 + 323.68 / 512.05) / 2)));
    const bold = [...example.matchAll(/\*\*([0-9.]+)\*\*/g)].map((match) => match[1]);
    expect(bold).toEqual(expected);
    expect(stored.find((row) => row.date === '2021-01-01')?.value).toBe(expected.at(-1));
    for (const [date] of chain) {
      const [row] = (
        await database.db.query<{ value: string }>(
          `select value::text from public.index_points where index_slug = 'flower-price' and date = $1`,
          [date],
        )
      ).rows;
      expect(example).toContain(`**${row?.value}**`);
    }
  });

  it('the methodology page states the rules the pages apply: staleness, ranges, labels (decision 206)', async () => {
    const [index] = (
      await database.db.query<{ methodology: string }>(
        `select methodology from public.market_indices where slug = 'flower-price'`,
      )
    ).rows;
    const text = (index?.methodology ?? '').replace(/\s+/g, ' ');
    // the stale interval the pages use
    expect(NORMAL_INTERVAL.flower).toMatchObject({ months: 3, days: 0 });
    expect(text).toContain(`more than **${NORMAL_INTERVAL.flower.months} months** older than today`);
    // the home page's range, and a range label as the pages write it
    expect(text).toContain(`the change over **${HEADLINE_RANGE}**`);
    expect(text).toContain(`"${rangeText('1Y', '2025-01-01')}"`);
    // a label as the pages write it, from a row of the shipped CSV
    expect(text).toContain(`"${observationLabel('CO', 'westword.com 2024-10-01')}"`);
  });

  it('labels points as the page does: the database and the page agree on every shipped row (decision 206)', async () => {
    const csv = await readFile(join(PROJECT_ROOT, 'supabase', 'data', 'flower-prices.csv'), 'utf8');
    const rows = parse(csv, { columns: true }) as { state: string; source: string }[];
    for (const row of [...rows, { state: 'ZZ', source: 'hand-made' }]) {
      const [label] = (
        await database.db.query<{ label: string }>('select private.market_flower_label($1, $2) as label', [
          row.state,
          row.source,
        ])
      ).rows;
      expect(label?.label).toBe(observationLabel(row.state, row.source));
    }
    // the composite's points name them so
    const [point] = (
      await database.db.query<{ source: string }>(
        `select source from public.index_points where index_slug = 'flower-price' and date = '2024-10-01'`,
      )
    ).rows;
    expect(point?.source).toContain(
      'CO 2024-10 658.0000 USD/lb median (AMR): Colorado Department of Revenue figure as reported by westword.com 2024-10-01',
    );
  });
});
