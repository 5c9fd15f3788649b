import { describe, expect, it } from 'vitest';
import {
  addToDate,
  changeOver,
  csvCell,
  headlineOf,
  isStale,
  observationLabel,
  parseMarkdown,
  pointsCsv,
  pointsInRange,
  rangeStart,
  usdPerGram,
} from './market-data.ts';

describe('ranges', () => {
  it('count back from the latest date', () => {
    expect(rangeStart('1M', '2025-05-15')).toBe('2025-04-15');
    expect(rangeStart('3M', '2025-05-15')).toBe('2025-02-15');
    expect(rangeStart('1Y', '2025-05-15')).toBe('2024-05-15');
    expect(rangeStart('YTD', '2025-05-15')).toBe('2025-01-01');
    expect(rangeStart('All', '2025-05-15')).toBeNull();
  });

  it('clamp to the end of a shorter month and cross the year', () => {
    expect(rangeStart('1M', '2025-03-31')).toBe('2025-02-28');
    expect(rangeStart('3M', '2025-01-31')).toBe('2024-10-31');
    expect(rangeStart('1M', '2025-01-10')).toBe('2024-12-10');
  });

  it('select the points and measure the change', () => {
    const points = [
      { date: '2024-12-31', value: 100 },
      { date: '2025-01-02', value: 110 },
      { date: '2025-02-01', value: 121 },
    ];
    expect(pointsInRange(points, 'YTD').map((point) => point.date)).toEqual(['2025-01-02', '2025-02-01']);
    expect(changeOver(pointsInRange(points, 'YTD'))).toEqual({ absolute: 11, percent: 10 });
    expect(changeOver(pointsInRange(points, 'All'))?.percent).toBeCloseTo(21);
    expect(changeOver([{ value: 1 }])).toBeNull();
    expect(pointsInRange([], '1M')).toEqual([]);
  });
});

describe('units', () => {
  it('convert to USD per gram', () => {
    expect(usdPerGram(759, 'USD/lb')).toBeCloseTo(1.67331, 5);
    expect(usdPerGram(283.5, 'USD/oz')).toBeCloseTo(10.0002, 4);
    expect(usdPerGram(4.08, 'USD/g')).toBe(4.08);
    expect(usdPerGram(1, 'EUR/kg')).toBeNull();
  });
});

describe('the CSV export', () => {
  it('neutralises formulas and quotes what needs quoting', () => {
    expect(csvCell('=cmd|/c calc!A1')).toBe("'=cmd|/c calc!A1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('a, "b"')).toBe('"a, ""b"""');
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell(null)).toBe('');
  });

  it('labels the demonstration series in every row and carries each point’s detail', () => {
    const csv = pointsCsv('cannabis-equity', [
      {
        date: '2025-01-02',
        value: 100,
        source: '=HYPERLINK("x")',
        as_of: '2025-01-03T00:00:00Z',
        revision: 1,
        carried: false,
        detail: null,
        is_sample: true,
      },
      {
        date: '2025-01-03',
        value: 101.5,
        source: 'Demo',
        as_of: '2025-01-04T00:00:00Z',
        revision: 1,
        carried: false,
        detail: 'CO 1.02, MI 0.99',
        is_sample: true,
      },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'index,date,value,carried,revision,source,detail,as_of,demonstration',
      `cannabis-equity,2025-01-02,100.000000,no,1,"'=HYPERLINK(""x"")",,2025-01-03T00:00:00Z,"yes (demonstration series, not market data)"`,
      `cannabis-equity,2025-01-03,101.500000,no,1,Demo,"CO 1.02, MI 0.99",2025-01-04T00:00:00Z,"yes (demonstration series, not market data)"`,
      '',
    ]);
  });
});

describe('the methodology Markdown', () => {
  it('parses headings, paragraphs, lists and inline marks, never HTML', () => {
    expect(
      parseMarkdown('## Formula\n\n- **Base:** 100\n- a *long*\n  item\n\nText with `code` and <b>tags</b>.'),
    ).toEqual([
      { kind: 'heading', level: 2, inline: [{ kind: 'text', text: 'Formula' }] },
      {
        kind: 'list',
        items: [
          [
            { kind: 'strong', text: 'Base:' },
            { kind: 'text', text: ' 100' },
          ],
          [
            { kind: 'text', text: 'a ' },
            { kind: 'em', text: 'long' },
            { kind: 'text', text: ' item' },
          ],
        ],
      },
      {
        kind: 'paragraph',
        inline: [
          { kind: 'text', text: 'Text with ' },
          { kind: 'code', text: 'code' },
          { kind: 'text', text: ' and <b>tags</b>.' },
        ],
      },
    ]);
  });
});

describe('headlines (decision 206)', () => {
  it('a flower value is stale once older than a quarter; a daily close after four days', () => {
    expect(addToDate('2025-11-30', 3, 0)).toBe('2026-02-28');
    expect(isStale('flower', '2026-01-01', '2026-04-01')).toBe(false);
    expect(isStale('flower', '2026-01-01', '2026-04-02')).toBe(true);
    expect(isStale('flower', '2026-01-01', '2026-11-28')).toBe(true);
    expect(isStale('equity', '2026-11-27', '2026-12-01')).toBe(false);
    expect(isStale('equity', '2026-11-27', '2026-12-02')).toBe(true);
  });

  it('say the range of the change, from the points of that range', () => {
    const points = [
      { date: '2025-01-01', value: 100 },
      { date: '2025-04-01', value: 90 },
      { date: '2026-01-01', value: 81 },
    ];
    const oneYear = headlineOf('flower', pointsInRange(points, '1Y'), '1Y', '2026-02-01');
    expect(oneYear.last?.value).toBe(81);
    expect(oneYear.change?.percent).toBeCloseTo(-19, 9);
    expect(oneYear.changeRange).toBe('over 1Y (since 2025-01-01)');
    expect(oneYear.stale).toBe(false);
    const all = headlineOf('flower', points, 'All', '2026-11-28');
    expect(all.changeRange).toBe('since the first value (2025-01-01)');
    expect(all.stale).toBe(true);
    expect(headlineOf('flower', points.slice(0, 1), '1Y', '2025-01-02').changeRange).toBeNull();
  });

  it('label a price point with its regulator and the publication that reported it', () => {
    expect(observationLabel('CO', 'westword.com 2024-10-01')).toBe(
      'Colorado Department of Revenue figure as reported by westword.com 2024-10-01',
    );
    expect(observationLabel('CO', 'Colorado Department of Revenue release 2018-12-20')).toBe(
      'Colorado Department of Revenue figure, from its own publication: Colorado Department of Revenue release 2018-12-20',
    );
    expect(observationLabel('OR', 'cannabisbenchmarks.com 2023-12-12 (OLCC data)')).toBe(
      'Oregon Liquor and Cannabis Commission (OLCC) figure as reported by cannabisbenchmarks.com 2023-12-12',
    );
    expect(observationLabel('MI', 'marijuanaretailreport.com (CRA data; record low)')).toBe(
      'Michigan Cannabis Regulatory Agency (CRA) figure as reported by marijuanaretailreport.com (record low)',
    );
    expect(observationLabel('ZZ', 'hand-made')).toBe('hand-made');
  });
});
