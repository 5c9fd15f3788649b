import { describe, expect, it } from 'vitest';
import { checkFileSize, parseClosesCsv } from './closes-csv.ts';

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
