/**
 * What running PGlite in a worker thread costs (docs/decisions/092; figures printed, never asserted):
 *  1. a round trip — `select 1`, a parameterised read by primary key, and a read in a transaction
 *     (begin, read, commit) — through the worker, against the same calls on PGlite in this thread as
 *     the server made them before;
 *  2. ending an overrunning statement: from the statement-timeout error to the next answered query,
 *     i.e. terminating the thread and opening the database again, on a fully migrated database.
 *
 * Run: npx tsx bench/embedded.ts [round trips=3000] [restarts=7]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Queryable } from '#server/db/driver.ts';
import { migrate } from '#server/db/migrate.ts';
import { openPglite } from '#server/db/pglite.ts';

const roundTrips = Number(process.argv[2] ?? 3000);
const restarts = Number(process.argv[3] ?? 7);

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;
const us = (ms: number) => Math.round(ms * 1000);

interface Calls {
  query: Queryable['query'];
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

async function measure(calls: Calls) {
  const timed = async (fn: () => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await fn(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < roundTrips; i++) {
      const started = performance.now();
      await fn();
      times.push(performance.now() - started);
    }
    return `${us(percentile(times, 50))} / ${us(percentile(times, 99))}`;
  };
  let n = 0;
  return {
    'select 1 (µs p50 / p99)': await timed(() => calls.query('select 1')),
    'read by key (µs p50 / p99)': await timed(() =>
      calls.query('select id, label from bench_rows where id = $1', [(n++ % 1000) + 1]),
    ),
    'begin, read, commit (µs p50 / p99)': await timed(() =>
      calls.transaction((tx) =>
        tx.query('select id, label from bench_rows where id = $1', [(n++ % 1000) + 1]),
      ),
    ),
  };
}

const SETUP = `create table if not exists bench_rows (id int primary key, label text);
insert into bench_rows select g, 'row ' || g from generate_series(1, 1000) g on conflict do nothing;`;

const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-embedded-'));
try {
  // A migrated database, as the server has it, opened again as on a restart.
  const limits = { statementTimeoutMs: { anon: 200, authenticated: 200, service_role: 200 } };
  const fresh = await openPglite({ dataDir });
  await migrate(fresh);
  await fresh.exec(SETUP);
  await fresh.close();
  let started = performance.now();
  const db = await openPglite({ dataDir, limits });
  const openMs = performance.now() - started;
  const worker = await measure(db);

  const reopened: number[] = [];
  for (let i = 0; i < restarts; i++) {
    const error = await db
      .withScope({ role: 'anon', claims: { role: 'anon' } }, (tx) => tx.query('select pg_sleep(30)'))
      .catch((caught: { code?: string }) => caught);
    if ((error as { code?: string }).code !== '57014') throw new Error('the statement was not ended');
    started = performance.now();
    await db.query('select 1');
    reopened.push(performance.now() - started);
  }
  await db.close();

  // The same database on this thread, as the server used it before decision 092.
  started = performance.now();
  const direct = await PGlite.create(join(dataDir, 'db'), { extensions: { pg_trgm } });
  const directOpenMs = performance.now() - started;
  const inThread = await measure({
    query: async (sql, params) => {
      const result = await direct.query(sql, params);
      return { rows: result.rows as never[], rowCount: result.rows.length, fields: [] };
    },
    transaction: (fn) =>
      direct.transaction((tx) =>
        fn({
          query: async (sql, params) => {
            const result = await tx.query(sql, params);
            return { rows: result.rows as never[], rowCount: result.rows.length, fields: [] };
          },
          exec: async (sql) => {
            await tx.exec(sql);
          },
        }),
      ),
  });
  await direct.close();

  console.log(`PGlite round trips (${roundTrips} each; load average ${loadavg()[0]?.toFixed(2)})`);
  console.table([
    { where: 'this thread (before)', ...inThread },
    { where: 'worker thread (now)', ...worker },
  ]);
  reopened.sort((a, b) => a - b);
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log('Opening the migrated database');
  console.table([
    { what: 'open in a new worker thread (loads PGlite, compiles it, starts it)', time: ms(openMs) },
    { what: 'open in this thread (PGlite module already loaded and compiled)', time: ms(directOpenMs) },
    {
      what: `after an overrun: error to next answer, median of ${restarts}`,
      time: ms(percentile(reopened, 50)),
    },
    {
      what: 'after an overrun: fastest / slowest',
      time: `${ms(reopened[0] ?? 0)} / ${ms(reopened.at(-1) ?? 0)}`,
    },
  ]);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
