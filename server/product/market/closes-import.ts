import { parse } from 'csv-parse/sync';
import type { Queryable } from '../../db/driver.ts';
import { OperatorError } from '../../operator-error.ts';
import { importCloseColumns } from './db.ts';

/**
 * Importing daily closes from a CSV file (product §market-index, decision 128), for
 * `npm run market:import` and the benchmark: the file is read and its shape checked here; every
 * row is checked by public.market_import_closes, which writes all rows or none in the caller's
 * transaction. The admin page follows the same rules in the browser.
 */

export const MAX_FILE_BYTES = 50 * 1024 * 1024;
const REQUIRED = ['ticker', 'date', 'close', 'source'];
const OPTIONAL = ['currency'];

export interface CloseRow {
  ticker: string;
  date: string;
  close: string;
  source: string;
  currency?: string;
}

export interface ImportResult {
  ok: boolean;
  applied: boolean;
  rows: number;
  error_count: number;
  errors: { line: number; column: string; message: string }[];
  new?: number;
  revised?: number;
  unchanged?: number;
  samples_removed?: number;
}

export class CsvError extends OperatorError {}

export function checkSize(bytes: number): void {
  if (bytes >= MAX_FILE_BYTES) {
    throw new CsvError(
      `the file is ${(bytes / 1024 / 1024).toFixed(1)} MB; files of 50 MB or more are refused (split it)`,
    );
  }
  if (bytes === 0) throw new CsvError('the file is empty');
}

export function parseCloses(text: string): CloseRow[] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (error) {
    throw new CsvError(
      `the file is not valid CSV: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const [header, ...body] = records;
  if (!header) throw new CsvError('the file is empty');
  const columns = header.map((name) => name.toLowerCase());
  const missing = REQUIRED.filter((name) => !columns.includes(name));
  if (missing.length > 0) {
    throw new CsvError(
      `the header must name the columns ticker, date, close and source (currency is optional); missing: ${missing.join(', ')}`,
    );
  }
  const unknown = columns.filter((name) => !REQUIRED.includes(name) && !OPTIONAL.includes(name));
  if (unknown.length > 0) throw new CsvError(`unknown column(s): ${unknown.join(', ').slice(0, 200)}`);
  if (body.length === 0) throw new CsvError('the file has a header but no rows');
  const at = Object.fromEntries(columns.map((name, index) => [name, index]));
  const currency = at.currency;
  return body.map((record) => {
    const row: CloseRow = {
      ticker: record[at.ticker as number] ?? '',
      date: record[at.date as number] ?? '',
      close: record[at.close as number] ?? '',
      source: record[at.source as number] ?? '',
    };
    if (currency !== undefined) row.currency = record[currency] ?? '';
    return row;
  });
}

/**
 * Checks (apply = false) or imports (apply = true) the rows; one statement, in the caller's transaction.
 * The rows travel as one text array per column (private.market_import_close_columns): far cheaper for
 * the database to read than the JSON the admin page sends through the data API (decision 144).
 */
export async function importCloses(db: Queryable, rows: CloseRow[], apply: boolean): Promise<ImportResult> {
  const tickers: string[] = new Array(rows.length);
  const dates: string[] = new Array(rows.length);
  const closes: string[] = new Array(rows.length);
  const sources: string[] = new Array(rows.length);
  const withCurrency = rows.some((row) => row.currency !== undefined);
  const currencies: string[] | null = withCurrency ? new Array(rows.length) : null;
  rows.forEach((row, index) => {
    tickers[index] = row.ticker;
    dates[index] = row.date;
    closes[index] = row.close;
    sources[index] = row.source;
    if (currencies) currencies[index] = row.currency ?? '';
  });
  return importCloseColumns(db, [tickers, dates, closes, sources, currencies], apply);
}
