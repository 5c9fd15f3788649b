import type { RequestScope } from '#server/db/driver.ts';
import type { TestServer } from './test-server.ts';

/**
 * How many entries of `index` a statement reads, run in `scope`: its transaction asks for its counts
 * to reach the shared statistics at commit (pg_stat_force_next_flush), which are then read afresh. For
 * tests of what a plan reads, not what it was priced at (decisions 256, 257).
 */
export async function indexReads<T>(
  server: TestServer,
  index: string,
  scope: RequestScope,
  statement: string,
  params: unknown[] = [],
): Promise<{ reads: number; rows: T[] }> {
  const reads = async () => {
    await server.db.query('select pg_stat_clear_snapshot()');
    const { rows } = await server.db.query<{ reads: string }>(
      'select idx_tup_read::text as reads from pg_stat_user_indexes where indexrelname = $1',
      [index],
    );
    return Number(rows[0]?.reads ?? Number.NaN);
  };
  const before = await reads();
  const rows = await server.db.withScope(scope, async (tx) => {
    const result = await tx.query<T>(statement, params);
    await tx.query('select pg_stat_force_next_flush()');
    return result.rows;
  });
  return { reads: (await reads()) - before, rows };
}

/**
 * Runs `check` while the planner prices the word " zebra" in `column` as held by the rows `where`
 * selects (statistics taken while they all held it), though only the row `keep` holds it; then puts
 * the column and the statistics back. No automatic analyze meanwhile.
 */
export async function withOverpricedWord(
  server: TestServer,
  target: { table: string; column: string; where: string; keep: string },
  check: () => Promise<void>,
): Promise<void> {
  const { table, column, where, keep } = target;
  await server.db.exec(`
    alter table ${table} set (autovacuum_enabled = false);
    update ${table} set ${column} = ${column} || ' zebra' where ${where};
    analyze ${table};
    update ${table} set ${column} = left(${column}, -6) where ${column} like '% zebra' and id::text <> '${keep}';`);
  try {
    await check();
  } finally {
    await server.db.exec(`
      update ${table} set ${column} = left(${column}, -6) where ${column} like '% zebra';
      alter table ${table} reset (autovacuum_enabled);
      analyze ${table};`);
  }
}
