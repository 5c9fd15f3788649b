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

export type ParsedCloses = ParsedRows<CloseRow>;

export function checkFileSize(bytes: number): string | null {
  if (bytes >= MAX_FILE_BYTES) {
    return `The file is ${(bytes / 1024 / 1024).toFixed(1)} MB; files of 50 MB or more are refused. Split it, or import it with npm run market:import.`;
  }
  if (bytes === 0) return 'The file is empty.';
  return null;
}

export type ParsedRows<Row> = { ok: true; rows: Row[] } | { ok: false; message: string };

/**
 * Reads a CSV whose header names `required` columns (in any order, any case) and maybe `optional`
 * ones; each row becomes an object of those columns (an absent optional column stays absent).
 */
export function parseCsvRows<Row>(
  text: string,
  required: readonly string[],
  optional: readonly string[],
): ParsedRows<Row> {
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
  const missing = required.filter((name) => !columns.includes(name));
  if (missing.length > 0) {
    const listed = `${required.slice(0, -1).join(', ')} and ${required.at(-1)}`;
    const optionalText =
      optional.length > 0 ? ` (${optional.join(', ')} ${optional.length === 1 ? 'is' : 'are'} optional)` : '';
    return {
      ok: false,
      message: `The header must name the columns ${listed}${optionalText}; missing: ${missing.join(', ')}.`,
    };
  }
  const unknown = columns.filter((name) => !required.includes(name) && !optional.includes(name));
  if (unknown.length > 0)
    return { ok: false, message: `Unknown column(s): ${unknown.join(', ').slice(0, 200)}.` };
  if (body.length === 0) return { ok: false, message: 'The file has a header but no rows.' };
  const rows = body.map((record) => {
    const row: Record<string, string> = {};
    for (const name of required) row[name] = record[columns.indexOf(name)] ?? '';
    for (const name of optional) {
      if (columns.includes(name)) row[name] = record[columns.indexOf(name)] ?? '';
    }
    return row as Row;
  });
  return { ok: true, rows };
}

export function parseClosesCsv(text: string): ParsedCloses {
  return parseCsvRows<CloseRow>(text, REQUIRED_COLUMNS, OPTIONAL_COLUMNS);
}

/** Flower price points: the columns of the shipped flower-prices.csv (decision 145). */
export const FLOWER_REQUIRED_COLUMNS = [
  'state',
  'series',
  'period',
  'unit',
  'value',
  'statistic',
  'source',
] as const;
export const FLOWER_OPTIONAL_COLUMNS = ['note'] as const;

export interface FlowerRow {
  state: string;
  series: string;
  period: string;
  unit: string;
  value: string;
  statistic: string;
  source: string;
  note?: string;
}

export function parseFlowerCsv(text: string): ParsedRows<FlowerRow> {
  return parseCsvRows<FlowerRow>(text, FLOWER_REQUIRED_COLUMNS, FLOWER_OPTIONAL_COLUMNS);
}
