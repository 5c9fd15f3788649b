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
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
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

async function inThread(dataDir: string) {
  const started = performance.now();
  const direct = await PGlite.create(join(dataDir, 'db'), { extensions: { pg_trgm, fuzzystrmatch } });
  const openMs = performance.now() - started;
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async (sql, params) => {
      const result = await target.query(sql, params);
      return { rows: result.rows as never[], rowCount: result.rows.length, fields: [] };
    },
    exec: async (sql) => {
      await target.exec(sql);
    },
  });
  const figures = await measure({
    query: wrap(direct).query,
    transaction: (fn) => direct.transaction((tx) => fn(wrap(tx))),
  });
  await direct.close();
  return { openMs, figures };
}

async function inWorker(dataDir: string) {
  const started = performance.now();
  const db = await openPglite({
    dataDir,
    limits: { statementTimeoutMs: { anon: 200, authenticated: 200, service_role: 200 } },
  });
  const openMs = performance.now() - started;
  const figures = await measure(db);
  return { openMs, figures, db };
}

const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-embedded-'));
try {
  // A migrated database, as the server has it, opened again as on a restart.
  const fresh = await openPglite({ dataDir });
  await migrate(fresh);
  await fresh.exec(SETUP);
  await fresh.close();

  // Two rounds each, alternating, so neither side runs only on a warmer (or busier) machine.
  const thread1 = await inThread(dataDir);
  const worker1 = await inWorker(dataDir);
  await worker1.db.close();
  const thread2 = await inThread(dataDir);
  const worker2 = await inWorker(dataDir);
  const db = worker2.db;

  const reopened: number[] = [];
  for (let i = 0; i < restarts; i++) {
    const error = await db
      .withScope({ role: 'anon', claims: { role: 'anon' } }, (tx) => tx.query('select pg_sleep(30)'))
      .catch((caught: { code?: string }) => caught);
    if ((error as { code?: string }).code !== '57014') throw new Error('the statement was not ended');
    const started = performance.now();
    await db.query('select 1');
    reopened.push(performance.now() - started);
  }
  await db.close();

  console.log(`PGlite round trips (${roundTrips} each; load average ${loadavg()[0]?.toFixed(2)})`);
  console.table([
    { where: 'this thread (before), round 1', ...thread1.figures },
    { where: 'worker thread (now), round 1', ...worker1.figures },
    { where: 'this thread (before), round 2', ...thread2.figures },
    { where: 'worker thread (now), round 2', ...worker2.figures },
  ]);
  reopened.sort((a, b) => a - b);
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log('Opening the migrated database');
  console.table([
    {
      what: 'open in a new worker thread (loads PGlite, starts it), rounds 1 / 2',
      time: `${ms(worker1.openMs)} / ${ms(worker2.openMs)}`,
    },
    {
      what: 'open in this thread (PGlite already loaded), rounds 1 / 2',
      time: `${ms(thread1.openMs)} / ${ms(thread2.openMs)}`,
    },
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
