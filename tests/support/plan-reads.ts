import type { RequestScope } from '#server/db/driver.ts';
import type { TestServer } from './test-server.ts';

/**
 * A statement run in `scope`, with the change it made to one of PostgreSQL's counts for the
 * transaction (`count`, a query of one row and column `n`, asked before and after it).
 */
async function counted<T>(
  server: TestServer,
  scope: RequestScope,
  count: { sql: string; params: unknown[]; before?: string[] },
  statement: string,
  params: unknown[],
): Promise<{ n: number; rows: T[] }> {
  return server.db.withScope(scope, async (tx) => {
    for (const sql of count.before ?? []) await tx.query(sql);
    const read = async () => {
      const { rows } = await tx.query<{ n: string }>(count.sql, count.params);
      return Number(rows[0]?.n ?? Number.NaN);
    };
    const before = await read();
    const result = await tx.query<T>(statement, params);
    return { n: (await read()) - before, rows: result.rows };
  });
}

/**
 * How many rows of `table` a statement reads, run in `scope`: rows read by sequential scans plus rows
 * fetched through any index, as PostgreSQL counts them for the transaction (pg_stat_xact_user_tables,
 * read before and after in the same transaction). For tests of what a plan reads, not what it was
 * priced at (decisions 256–258).
 */
export async function tableReads<T>(
  server: TestServer,
  table: string,
  scope: RequestScope,
  statement: string,
  params: unknown[] = [],
): Promise<{ reads: number; rows: T[] }> {
  const sql = `select (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text as n
    from pg_stat_xact_user_tables where relid = $1::regclass`;
  const { n, rows } = await counted<T>(server, scope, { sql, params: [table] }, statement, params);
  return { reads: n, rows };
}

/**
 * How many times a statement, run in `scope`, calls the function `fn` (a regprocedure, such as
 * `private.f(text)`), as PostgreSQL counts calls for the transaction (pg_stat_xact_user_functions, with
 * track_functions set to all for it: a superuser's setting, so set before the scope's role is taken
 * again). A function inlined into its caller's statement is not called and not counted.
 */
export async function functionCalls<T>(
  server: TestServer,
  fn: string,
  scope: RequestScope,
  statement: string,
  params: unknown[] = [],
): Promise<{ calls: number; rows: T[] }> {
  const sql = `select coalesce((select calls from pg_stat_xact_user_functions where funcid = $1::regprocedure), 0)::text as n`;
  const before = [`set local role none`, `set local track_functions = 'all'`, `set local role ${scope.role}`];
  const { n, rows } = await counted<T>(server, scope, { sql, params: [fn], before }, statement, params);
  return { calls: n, rows };
}

/**
 * How many times a statement, run in `scope`, scans the index `index` (a regclass), as PostgreSQL counts
 * them for the transaction (pg_stat_get_xact_numscans of the index): which of a table's indexes a plan
 * read, where the rows it reads are the same (decision 279).
 */
export async function indexScans<T>(
  server: TestServer,
  index: string,
  scope: RequestScope,
  statement: string,
  params: unknown[] = [],
): Promise<{ scans: number; rows: T[] }> {
  const sql = `select pg_stat_get_xact_numscans($1::regclass)::text as n`;
  const { n, rows } = await counted<T>(server, scope, { sql, params: [index] }, statement, params);
  return { scans: n, rows };
}

/**
 * Runs `check` while the planner prices the word " zebra" in `column` as held by the rows `where`
 * selects (statistics taken while they all held it), though only the row `keep` holds it; then puts
 * the column and the statistics back. No automatic analyze meanwhile; the table's triggers do not run
 * for these writes (session_replication_role = replica), which are the test's arrangement, not a user's.
 */
export async function withOverpricedWord(
  server: TestServer,
  target: { table: string; column: string; where: string; keep: string },
  check: () => Promise<void>,
): Promise<void> {
  const { table, column, where, keep } = target;
  await server.db.exec(`
    alter table ${table} set (autovacuum_enabled = false);
    set session_replication_role = replica;
    update ${table} set ${column} = ${column} || ' zebra' where ${where};
    analyze ${table};
    update ${table} set ${column} = left(${column}, -6) where ${column} like '% zebra' and id::text <> '${keep}';
    set session_replication_role = origin;`);
  try {
    await check();
  } finally {
    await server.db.exec(`
      set session_replication_role = replica;
      update ${table} set ${column} = left(${column}, -6) where ${column} like '% zebra';
      set session_replication_role = origin;
      alter table ${table} reset (autovacuum_enabled);
      analyze ${table};`);
  }
}
