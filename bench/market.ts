/**
 * Market index at size (issue 20): imports daily closes through the all-or-nothing import
 * (public.market_import_closes, as `npm run market:import` and the admin page call it), recomputes
 * a 50-stock equal-weighted index over 20 years of trading days, and fetches the 1Y chart data through
 * /rest/v1 as the page does. Prints figures; asserts nothing.
 *
 *   npx tsx bench/market.ts [pglite|postgres] [--scale=1]
 *
 * Full size is 1,000,000 closes (200 securities × 5,000 trading days) on PostgreSQL and a fifth of
 * the securities on PGlite (200,000 closes); --scale multiplies the securities (say which you ran).
 * The import runs in batches of 100,000 rows, each one call and one transaction. The recompute index
 * holds 50 of the securities over all 5,000 days (about 20 years). `postgres` needs BENCH_PG_URL or
 * TEST_PG_URL.
 */
import { readFileSync } from 'node:fs';
import type { Queryable } from '#server/db/driver.ts';
import { type CloseRow, importCloses } from '#server/product/market/closes-import.ts';
import { startTestServer } from '#tests/support/test-server.ts';

const tier = (process.argv[2] ?? 'pglite') as 'pglite' | 'postgres';
const scaleArg = process.argv.find((arg) => arg.startsWith('--scale='));
const scale = scaleArg ? Number(scaleArg.slice('--scale='.length)) : 1;
const DAYS = 5000;
const SECURITIES = Math.max(50, Math.round((tier === 'postgres' ? 200 : 40) * scale));
const BATCH_DAYS = Math.max(1, Math.floor(100_000 / SECURITIES));
const MEMBERS = 50;
const CHART_REQUESTS = 200;

if (tier === 'postgres') {
  process.env.TEST_DB = 'postgres';
  process.env.TEST_PG_URL ??= process.env.BENCH_PG_URL;
}

const percentile = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
};

/** Weekdays from 2006-01-02, as YYYY-MM-DD. */
function tradingDays(count: number): string[] {
  const days: string[] = [];
  const day = new Date(Date.UTC(2006, 0, 2));
  while (days.length < count) {
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return days;
}

/**
 * CPU seconds spent doing `fn`: by the PostgreSQL backend serving `tx` (from /proc; the server runs
 * on this machine), or by this process on PGlite (the database runs in it). On a shared machine this
 * is the figure that does not grow with other sessions' load; wall-clock figures are printed too.
 */
async function cpuSeconds<T>(tx: Queryable, fn: () => Promise<T>): Promise<{ result: T; cpu: number }> {
  if (tier === 'pglite') {
    const before = process.cpuUsage();
    const result = await fn();
    const used = process.cpuUsage(before);
    return { result, cpu: (used.user + used.system) / 1e6 };
  }
  const [row] = (await tx.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
  const ticks = () => {
    const fields = readFileSync(`/proc/${row?.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]);
  };
  const before = ticks();
  const result = await fn();
  return { result, cpu: (ticks() - before) / 100 };
}

async function main() {
  const closes = SECURITIES * DAYS;
  console.log(
    `Market bench on ${tier}: import ${closes.toLocaleString('en-US')} closes (${SECURITIES} securities × ${DAYS} days), recompute ${MEMBERS} stocks × ${DAYS} days (scale ${scale})`,
  );
  const server = await startTestServer({ DEMO_CONTENT: 'false' });
  const db = server.db;
  try {
    const tickers = Array.from({ length: SECURITIES }, (_, i) => `BX${String(i).padStart(4, '0')}`);
    await db.query(
      `insert into public.market_securities (ticker, company, venue)
       select t, 'Bench ' || t, 'BENCH' from unnest($1::text[]) t`,
      [tickers],
    );
    const days = tradingDays(DAYS);

    // 1. Import, in batches of about 100,000 rows.
    let imported = 0;
    let importCpu = 0;
    const importStart = performance.now();
    for (let from = 0; from < days.length; from += BATCH_DAYS) {
      const rows: CloseRow[] = [];
      for (const [d, date] of days.slice(from, from + BATCH_DAYS).entries()) {
        for (const [t, ticker] of tickers.entries()) {
          const price = (10 + t + 5 * Math.sin((from + d) / (20 + t))).toFixed(4);
          rows.push({ ticker, date, close: price, source: 'bench feed' });
        }
      }
      const { result, cpu } = await db.transaction((tx) =>
        cpuSeconds(tx, () => importCloses(tx, rows, true)),
      );
      importCpu += cpu;
      if (!result.ok) throw new Error(`import refused: ${JSON.stringify(result.errors.slice(0, 3))}`);
      imported += result.rows;
    }
    const importSeconds = (performance.now() - importStart) / 1000;
    console.log(
      `import: ${imported.toLocaleString('en-US')} rows in ${importSeconds.toFixed(1)} s = ${Math.round(imported / importSeconds).toLocaleString('en-US')} rows/s (database CPU ${importCpu.toFixed(1)} s = ${Math.round(imported / importCpu).toLocaleString('en-US')} rows per CPU second)`,
    );

    // 2. Recompute a 50-stock index over the 5,000 days (the constituents go in without the trigger's
    // recompute, so the first store below is the whole computation).
    await db.query(
      `insert into public.market_indices (slug, kind, name, description, methodology)
       values ('bench-50', 'equity', 'Bench 50', 'bench', 'bench')`,
    );
    await db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(
        `insert into public.market_constituents (index_slug, ticker, effective_from)
         select 'bench-50', t, date '2000-01-01' from unnest($1::text[]) t`,
        [tickers.slice(0, MEMBERS)],
      );
    });
    /** Wall-clock ms and database CPU s of one statement. */
    const measure = async <R>(sql: string) => {
      const begin = performance.now();
      const { result, cpu } = await db.transaction((tx) => cpuSeconds(tx, () => tx.query<R>(sql)));
      return { rows: result.rows, ms: performance.now() - begin, cpu };
    };
    const figures = (m: { ms: number; cpu: number }) =>
      `${m.ms.toFixed(0)} ms (database CPU ${m.cpu.toFixed(2)} s)`;
    const first = await measure<{ r: unknown }>(`select private.market_store('bench-50') as r`);
    const levels = await measure(`select count(*) from private.market_levels('bench-50')`);
    const verify = await measure<{ v: { ok: boolean; checked: number } }>(
      `select public.market_verify('bench-50') as v`,
    );
    const unchanged = await measure(`select private.market_store('bench-50')`);
    console.log(`recompute: first store ${figures(first)} ${JSON.stringify(first.rows[0]?.r)}`);
    console.log(
      `recompute: levels only ${figures(levels)}; store with nothing changed ${figures(unchanged)}`,
    );
    console.log(`verify: ${figures(verify)} ${JSON.stringify(verify.rows[0]?.v)}`);

    // 3. The 1Y chart data through the data API, as the page asks for it.
    const latest = days.at(-1) as string;
    const yearAgo = `${Number(latest.slice(0, 4)) - 1}${latest.slice(4)}`;
    const url = `${server.url}/rest/v1/index_points?select=date,value,source,as_of,revision,carried,detail,is_sample&index_slug=eq.bench-50&date=gte.${yearAgo}&order=date.asc&limit=20000`;
    const headers = { apikey: server.anonKey };
    let points = 0;
    for (let i = 0; i < 10; i += 1)
      points = ((await (await fetch(url, { headers })).json()) as unknown[]).length;
    const samples: number[] = [];
    for (let i = 0; i < CHART_REQUESTS; i += 1) {
      const begin = performance.now();
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      samples.push(performance.now() - begin);
    }
    console.log(
      `chart API (1Y, ${points} points): p50 ${percentile(samples, 0.5).toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms over ${CHART_REQUESTS} requests`,
    );
  } finally {
    await server.close();
  }
}

await main();
