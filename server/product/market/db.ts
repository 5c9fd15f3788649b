import type { Queryable } from '../../db/driver.ts';
import type { ImportResult } from './closes-import.ts';

/** Every SQL statement of the market index's server side (decisions 143, 144). */

const SEPARATOR = '\u001f';

/**
 * Imports the closes, one array per column (ticker, date, close, source, currency or null), through
 * private.market_import_close_columns: all or nothing; `apply` false only checks (decision 144).
 */

export async function importCloseColumns(
  db: Queryable,
  values: (string[] | null)[],
  apply: boolean,
): Promise<ImportResult> {
  // Each column goes as one string split by the database (node-postgres formats a text[] parameter
  // element by element, which costs more than the whole import's checks); a value holding the
  // separator itself (or a single row: '' would split into no element) sends that column as an array.
  const column = (values: string[] | null, index: number) =>
    values === null || values.length <= 1 || values.some((value) => value.includes(SEPARATOR))
      ? { sql: `$${index}::text[]`, value: values }
      : { sql: `string_to_array($${index}::text, chr(31))`, value: values.join(SEPARATOR) };
  const columns = values.map((each, index) => column(each, index + 1));
  const { rows: result } = await db.query<{ result: ImportResult }>(
    `select private.market_import_close_columns(${columns.map((c) => c.sql).join(', ')}, $6) as result`,
    [...columns.map((c) => c.value), apply],
  );
  return result[0]?.result as ImportResult;
}

/** Each security with the dates to ask its provider for: from the last close less the look-back. */
export async function securitiesToRefresh(
  db: Queryable,
  lookbackDays: number,
  historyDays: number,
): Promise<{ ticker: string; from: string; to: string }[]> {
  const { rows } = await db.query<{ ticker: string; from: string; to: string }>(
    `select s.ticker,
            to_char(coalesce(max(c.date) - $1::integer, current_date - $2::integer), 'YYYY-MM-DD') as "from",
            to_char(current_date, 'YYYY-MM-DD') as "to"
       from public.market_securities s
       left join public.market_closes c on c.ticker = s.ticker and not c.is_sample
      group by s.ticker
      order by s.ticker`,
    [lookbackDays, historyDays],
  );
  return rows;
}
