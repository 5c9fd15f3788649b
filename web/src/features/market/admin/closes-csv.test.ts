import { describe, expect, it } from 'vitest';
import { checkFileSize, parseClosesCsv, parseFlowerCsv } from './closes-csv.ts';

describe('reading a closes CSV', () => {
  it('maps the named columns in any order', () => {
    expect(parseClosesCsv('\uFEFFsource,Ticker,date,close\r\n"broker, A",TLRY,2025-01-02,1.5\r\n')).toEqual({
      ok: true,
      rows: [{ ticker: 'TLRY', date: '2025-01-02', close: '1.5', source: 'broker, A' }],
    });
  });

  it('refuses malformed CSV, a missing column and an empty body with a clear message', () => {
    expect(parseClosesCsv('ticker,date,close,source\nTLRY,"2025-01-02,1.5,x\n')).toMatchObject({ ok: false });
    expect(parseClosesCsv('ticker,date,close,source\nTLRY,2025-01-02\n')).toMatchObject({
      ok: false,
      message: expect.stringContaining('not valid CSV'),
    });
    expect(parseClosesCsv('ticker,date,price\nTLRY,2025-01-02,1\n')).toEqual({
      ok: false,
      message:
        'The header must name the columns ticker, date, close and source (currency is optional); missing: close, source.',
    });
    expect(parseClosesCsv('ticker,date,close,source\n')).toEqual({
      ok: false,
      message: 'The file has a header but no rows.',
    });
  });

  it('refuses files of 50 MB or more before reading them', () => {
    expect(checkFileSize(50 * 1024 * 1024)).toContain('50 MB or more');
    expect(checkFileSize(1024)).toBeNull();
    expect(checkFileSize(0)).toBe('The file is empty.');
  });
});

describe('reading a flower prices CSV', () => {
  it('reads the shipped columns, the note optional', () => {
    expect(
      parseFlowerCsv(
        'state,series,period,unit,value,statistic,source\nMA,retail dried flower price,2025-06-01,USD/g,5.1,average,"CCC, open data"\n',
      ),
    ).toEqual({
      ok: true,
      rows: [
        {
          state: 'MA',
          series: 'retail dried flower price',
          period: '2025-06-01',
          unit: 'USD/g',
          value: '5.1',
          statistic: 'average',
          source: 'CCC, open data',
        },
      ],
    });
  });

  it('names the columns a wrong header misses', () => {
    expect(parseFlowerCsv('state,period,value\nMA,2025-06-01,5\n')).toEqual({
      ok: false,
      message:
        'The header must name the columns state, series, period, unit, value, statistic and source (note is optional); missing: series, unit, statistic, source.',
    });
  });
});
