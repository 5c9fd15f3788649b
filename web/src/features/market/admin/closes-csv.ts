import { parse } from 'csv-parse/browser/esm/sync';

/**
 * Reading a closes CSV in the browser (product §market-index, decision 128): the file's size and
 * shape are checked here; every row's content is checked again by the database
 * (public.market_import_closes), which has the final word.
 */

/** Files of this size or more are refused before they are read. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
/** What one request to the data API may carry (its body limit is 10 MB); larger files go through the CLI. */
export const MAX_BROWSER_PAYLOAD_BYTES = 9 * 1024 * 1024;

export const REQUIRED_COLUMNS = ['ticker', 'date', 'close', 'source'] as const;
export const OPTIONAL_COLUMNS = ['currency'] as const;

export interface CloseRow {
  ticker: string;
  date: string;
  close: string;
  source: string;
  currency?: string;
}

export type ParsedCloses = { ok: true; rows: CloseRow[] } | { ok: false; message: string };

export function checkFileSize(bytes: number): string | null {
  if (bytes >= MAX_FILE_BYTES) {
    return `The file is ${(bytes / 1024 / 1024).toFixed(1)} MB; files of 50 MB or more are refused. Split it, or import it with npm run market:import.`;
  }
  if (bytes === 0) return 'The file is empty.';
  return null;
}

export function parseClosesCsv(text: string): ParsedCloses {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      trim: true,
    }) as string[][];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `The file is not valid CSV: ${message}` };
  }
  const [header, ...body] = records;
  if (!header) return { ok: false, message: 'The file is empty.' };
  const columns = header.map((name) => name.toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((name) => !columns.includes(name));
  if (missing.length > 0) {
    return {
      ok: false,
      message: `The header must name the columns ticker, date, close and source (currency is optional); missing: ${missing.join(', ')}.`,
    };
  }
  const unknown = columns.filter(
    (name) =>
      !(REQUIRED_COLUMNS as readonly string[]).includes(name) &&
      !(OPTIONAL_COLUMNS as readonly string[]).includes(name),
  );
  if (unknown.length > 0)
    return { ok: false, message: `Unknown column(s): ${unknown.join(', ').slice(0, 200)}.` };
  if (body.length === 0) return { ok: false, message: 'The file has a header but no rows.' };
  const at = (name: string) => columns.indexOf(name);
  const rows = body.map((record) => {
    const row: CloseRow = {
      ticker: record[at('ticker')] ?? '',
      date: record[at('date')] ?? '',
      close: record[at('close')] ?? '',
      source: record[at('source')] ?? '',
    };
    if (at('currency') >= 0) row.currency = record[at('currency')] ?? '';
    return row;
  });
  return { ok: true, rows };
}
