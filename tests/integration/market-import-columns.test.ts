// @databases: both — set queries and statement triggers of the import path.
/**
 * The server's import path at size (decision 144): rows passed as one string or array per column to
 * private.market_import_close_columns, checked by set queries, and the close → security reference
 * kept by statement triggers instead of a per-row foreign key (same error code, same refusals).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCloses } from '#server/product/market/closes-import.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';

let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.query(
    `insert into public.market_securities (ticker, company, venue) values ('COLA', 'Col A', 'TEST'), ('COLB', 'Col B', 'TEST'), ('COLC', 'Col C', 'TEST')`,
  );
});
afterAll(() => database?.close());

const sqlError = async (text: string, params: unknown[] = []) => {
  try {
    await database.db.query(text, params);
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected the statement to fail');
};

describe('market closes reference their security', () => {
  it('refuses a close of an unknown security (23503), in a single row and among many', async () => {
    const single = await sqlError(
      `insert into public.market_closes (ticker, date, close, source) values ('NOSUCH', '2024-01-02', 1, 'feed')`,
    );
    expect(single.code).toBe('23503');
    expect(single.message).toContain('market_closes_ticker_fkey');
    const many = await sqlError(
      `insert into public.market_closes (ticker, date, close, source)
       select case when g = 500 then 'NOSUCH' else 'COLA' end, date '2020-01-01' + g, 1, 'feed' from generate_series(1, 1000) g`,
    );
    expect(many.code).toBe('23503');
    const moved = await database.db
      .transaction(async (tx) => {
        await tx.query(
          `insert into public.market_closes (ticker, date, close, source) values ('COLB', '2024-01-02', 1, 'feed')`,
        );
        try {
          await tx.query(`update public.market_closes set ticker = 'NOSUCH' where ticker = 'COLB'`);
        } catch (error) {
          return error as { code?: string };
        }
        return undefined;
      })
      .catch((error: { code?: string }) => error);
    expect(moved?.code).toBe('23503');
    const { rows } = await database.db.query(`select count(*)::integer as n from public.market_closes`);
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('refuses deleting or renaming a security that has closes; one without closes goes', async () => {
    await database.db.query(
      `insert into public.market_closes (ticker, date, close, source) values ('COLA', '2024-01-02', 1, 'feed')`,
    );
    expect((await sqlError(`delete from public.market_securities where ticker = 'COLA'`)).code).toBe('23503');
    expect(
      (await sqlError(`update public.market_securities set ticker = 'COLZ' where ticker = 'COLA'`)).code,
    ).toBe('23503');
    await database.db.query(
      `insert into public.market_securities (ticker, company, venue) values ('COLD', 'D', 'TEST')`,
    );
    await database.db.query(`delete from public.market_securities where ticker = 'COLD'`);
    const { rows } = await database.db.query(
      `select count(*)::integer as n from public.market_securities where ticker in ('COLA', 'COLD')`,
    );
    expect(rows[0]).toEqual({ n: 1 });
  });
});

describe('importing columns', () => {
  it('imports values holding the column separator and single rows unchanged', async () => {
    const odd = `feed\u001fwith a unit separator`;
    const result = await database.db.transaction((tx) =>
      importCloses(
        tx,
        [
          { ticker: 'colc', date: '2024-03-01', close: '2.5', source: odd },
          { ticker: 'COLC', date: '2024-03-04', close: '2.75', source: 'feed', currency: 'usd' },
        ],
        true,
      ),
    );
    expect(result).toMatchObject({ ok: true, rows: 2, new: 2, revised: 0, unchanged: 0 });
    const { rows } = await database.db.query(
      `select to_char(date, 'YYYY-MM-DD') as date, close::text as close, source, currency from public.market_closes where ticker = 'COLC' order by date`,
    );
    expect(rows).toEqual([
      { date: '2024-03-01', close: '2.5000', source: odd, currency: 'USD' },
      { date: '2024-03-04', close: '2.7500', source: 'feed', currency: 'USD' },
    ]);
    const single = await database.db.transaction((tx) =>
      importCloses(tx, [{ ticker: 'COLC', date: '2024-03-05', close: '3', source: '' }], false),
    );
    expect(single.errors).toEqual([
      { line: 2, column: 'source', message: 'source is missing (every close names where it came from)' },
    ]);
  });

  it('words every problem with its line, refuses the whole file, and counts revisions', async () => {
    const rows = [
      { ticker: 'COLC', date: '2024-03-04', close: '2.80', source: 'feed' },
      { ticker: 'NOPE', date: '2024-03-05', close: '1', source: 'feed' },
      { ticker: 'COLC', date: '2024-02-30', close: '1', source: 'feed' },
      { ticker: 'COLC', date: '2024-03-06', close: '-1', source: 'feed' },
      { ticker: 'COLC', date: '2024-03-04', close: '2.9', source: 'feed' },
      { ticker: 'COLC', date: '2024-03-07', close: '1', source: '=cmd|calc' },
      { ticker: 'COLC', date: '2024-03-08', close: '1', source: 'feed', currency: 'CAD' },
    ];
    const refused = await database.db.transaction((tx) => importCloses(tx, rows, true));
    expect(refused.ok).toBe(false);
    expect(refused.errors).toEqual([
      { line: 3, column: 'ticker', message: 'unknown ticker "NOPE" (not in the equity universe)' },
      { line: 4, column: 'date', message: 'bad date "2024-02-30" (expected YYYY-MM-DD)' },
      { line: 5, column: 'close', message: 'negative price -1' },
      { line: 6, column: 'date', message: 'duplicate: COLC 2024-03-04 is also on line 2' },
      { line: 7, column: 'source', message: 'formulas are not accepted (cell starts with =)' },
      { line: 8, column: 'currency', message: 'unit mismatch: COLC closes are in USD, not CAD' },
    ]);
    const { rows: stored } = await database.db.query(
      `select close::text as close, revision from public.market_closes where ticker = 'COLC' and date = '2024-03-04'`,
    );
    expect(stored).toEqual([{ close: '2.7500', revision: 1 }]);
    const applied = await database.db.transaction((tx) => importCloses(tx, rows.slice(0, 1), true));
    expect(applied).toMatchObject({ ok: true, new: 0, revised: 1, unchanged: 0 });
    const again = await database.db.transaction((tx) => importCloses(tx, rows.slice(0, 1), true));
    expect(again).toMatchObject({ ok: true, new: 0, revised: 0, unchanged: 1 });
  });
});
