/**
 * The optional quote provider (issue 20, decision 143) against a local provider speaking the Tiingo
 * end-of-day protocol: the server schedules the fetch under its lease at start, the closes go through
 * the all-or-nothing import (sources, as-of, revisions, recompute), and a provider's errors, timeouts
 * and garbage skip their security without touching its closes. Off by default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';
import type { FunctionsDeps } from '#server/functions/functions.ts';
import { functionJobs } from '#server/functions/jobs.ts';
import { type QuoteDeps, refreshQuotes, tiingoProvider } from '#server/product/market/quotes.ts';
import { anonClient } from '#tests/support/clients.ts';
import { type QuoteServer, startQuoteServer } from '../support/quote-server.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let t: TestServer;
let quotes: QuoteServer;
let tickers: string[];

const silent = { warn: () => undefined, info: () => undefined };

function deps(options: { timeoutMs?: number; key?: string } = {}): QuoteDeps {
  return {
    db: t.db,
    log: silent,
    provider: tiingoProvider({
      url: quotes.url,
      key: options.key ?? quotes.key,
      timeoutMs: options.timeoutMs ?? 5000,
    }),
    refreshMinutes: 60,
    lookbackDays: 7,
    historyDays: 20,
    shutdown: new AbortController().signal,
  };
}

interface CloseRow {
  ticker: string;
  date: string;
  close: string;
  source: string;
  revision: number;
  as_of: string;
}

async function closes(ticker: string): Promise<CloseRow[]> {
  const { rows } = await t.db.query<CloseRow>(
    `select ticker, to_char(date, 'YYYY-MM-DD') as date, close::text as close, source, revision, as_of::text as as_of
       from public.market_closes where ticker = $1 order by date`,
    [ticker],
  );
  return rows;
}

beforeAll(async () => {
  quotes = await startQuoteServer();
  t = await startTestServer({
    MARKET_QUOTES_URL: quotes.url,
    MARKET_QUOTES_KEY: quotes.key,
    MARKET_QUOTES_HISTORY_DAYS: '20',
  });
  const { rows } = await t.db.query<{ ticker: string }>(
    'select ticker from public.market_securities order by ticker',
  );
  tickers = rows.map((row) => row.ticker);
  // the run the server started: wait for its lease to be released
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows: lease } = await t.db.query<{ finished_at: Date | null }>(
      `select finished_at from jobs.leases where name = 'market-quotes'`,
    );
    if (lease[0]?.finished_at) break;
    if (Date.now() > deadline) throw new Error('the scheduled quote fetch did not finish');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 90_000);

afterAll(async () => {
  await t?.close();
  await quotes?.close();
});

describe('quote provider', () => {
  it('is off unless MARKET_QUOTES_URL is set, and refuses a URL that is not http(s)', () => {
    const off = loadConfig({ DATA_DIR: '/tmp/unused' });
    expect(off.marketQuotes.url).toBeUndefined();
    const names = (quotesOn: boolean) =>
      functionJobs({
        news: { refreshMinutes: 30 },
        quotes: { provider: quotesOn ? {} : undefined, refreshMinutes: 90 },
      } as unknown as FunctionsDeps).map((job) => [job.name, job.everyMs]);
    expect(names(false).map(([name]) => name)).not.toContain('functions: market quotes');
    expect(names(true)).toContainEqual(['functions: market quotes', 90 * 60 * 1000]);
    expect(() => loadConfig({ DATA_DIR: '/tmp/unused', MARKET_QUOTES_URL: 'ftp://quotes.example' })).toThrow(
      ConfigError,
    );
  });

  it('runs at start under its lease, with the key, and imports every security through the import', async () => {
    expect(tickers.length).toBeGreaterThan(5);
    const asked = new Set(quotes.requests.map((request) => request.ticker));
    expect(asked.size).toBe(tickers.length);
    expect(quotes.requests.every((request) => request.authorization === `Token ${quotes.key}`)).toBe(true);
    const host = new URL(quotes.url).host;
    for (const ticker of tickers.slice(0, 3)) {
      const rows = await closes(ticker);
      expect(rows.length).toBeGreaterThanOrEqual(10);
      for (const row of rows) {
        expect(row.source).toBe(`quote provider ${host}, end-of-day close`);
        expect(row.revision).toBe(1);
        expect(Number.isNaN(Date.parse(row.as_of))).toBe(false);
        expect(Number(row.close)).toBeCloseTo(quotes.defaultClose(ticker.toLowerCase(), row.date), 4);
      }
    }
    // audited as an import, and the equity index recomputed from the closes exactly
    const { rows: audit } = await t.db.query<{ n: number }>(
      `select count(*)::integer as n from private.audit_log where action = 'market import closes'`,
    );
    expect(audit[0]?.n).toBeGreaterThanOrEqual(1);
    const { rows: indices } = await t.db.query<{ slug: string }>(
      `select slug from public.market_indices where kind = 'equity'`,
    );
    for (const { slug } of indices) {
      const { rows: verify } = await t.db.query<{ v: { ok: boolean; checked: number } }>(
        'select public.market_verify($1) as v',
        [slug],
      );
      expect(verify[0]?.v.ok).toBe(true);
    }
    // everyone reads them through the data API, with source and as-of
    const { data, error } = await anonClient(t)
      .from('market_closes')
      .select('ticker,date,close,source,as_of,revision,is_sample')
      .eq('ticker', tickers[0] as string)
      .limit(5);
    expect(error).toBeNull();
    expect(data?.length).toBe(5);
    expect(data?.every((row) => row.is_sample === false && typeof row.as_of === 'string')).toBe(true);
  });

  it('a corrected close becomes the next revision; the same close again changes nothing', async () => {
    const ticker = tickers[1] as string;
    const before = await closes(ticker);
    const last = before.at(-1) as CloseRow;
    const original = quotes.defaultClose;
    quotes.defaultClose = (name, date) =>
      name === ticker.toLowerCase() && date === last.date ? 77.1234 : original(name, date);
    try {
      const run = await refreshQuotes(deps());
      expect(run.failed).toEqual([]);
      expect(run.import?.ok).toBe(true);
      expect(run.import?.revised).toBe(1);
      const after = await closes(ticker);
      const corrected = after.find((row) => row.date === last.date) as CloseRow;
      expect(corrected).toMatchObject({ close: '77.1234', revision: 2 });
      const { rows: kept } = await t.db.query<{ close: string; revision: number }>(
        `select close::text as close, revision from public.market_close_revisions where ticker = $1 and date = $2`,
        [ticker, last.date],
      );
      expect(kept).toEqual([{ close: last.close, revision: 1 }]);
      // the lookback asked only from a week before the last stored close
      const request = quotes.requests.filter((r) => r.ticker === ticker.toLowerCase()).at(-1);
      const from = new Date(`${last.date}T00:00:00Z`);
      from.setUTCDate(from.getUTCDate() - 7);
      expect(request?.startDate).toBe(from.toISOString().slice(0, 10));

      const again = await refreshQuotes(deps());
      expect(again.import).toMatchObject({ ok: true, new: 0, revised: 0 });
      expect((await closes(ticker)).find((row) => row.date === last.date)?.revision).toBe(2);
    } finally {
      quotes.defaultClose = original;
    }
  });

  it('skips a security whose answer is an error, a timeout or garbage, and leaves its closes as they were', async () => {
    const [a, b, c, d, e, f, ok] = tickers as [string, string, string, string, string, string, string];
    const before = Object.fromEntries(
      await Promise.all([a, b, c, d, e, f].map(async (x) => [x, await closes(x)])),
    );
    quotes.behaviour.set(a.toLowerCase(), { kind: 'status', status: 500, body: 'upstream exploded' });
    quotes.behaviour.set(b.toLowerCase(), {
      kind: 'status',
      status: 404,
      body: JSON.stringify({ detail: `Error: Ticker '${b}' not found` }),
    });
    quotes.behaviour.set(c.toLowerCase(), { kind: 'slow', delayMs: 3000 });
    quotes.behaviour.set(d.toLowerCase(), { kind: 'raw', body: '<html>maintenance</html>' });
    quotes.behaviour.set(e.toLowerCase(), {
      kind: 'raw',
      body: JSON.stringify([{ date: '2026-01-05T00:00:00.000Z', close: -3.5 }]),
    });
    quotes.behaviour.set(f.toLowerCase(), { kind: 'raw', body: JSON.stringify({ detail: 'rate limited' }) });
    const original = quotes.defaultClose;
    quotes.defaultClose = (name, date) => original(name, date) + 1;
    try {
      const run = await refreshQuotes(deps({ timeoutMs: 300 }));
      const errors = Object.fromEntries(run.failed.map((x) => [x.ticker, x.error]));
      expect(errors).toEqual({
        [a]: 'HTTP 500',
        [b]: `HTTP 404: Error: Ticker '${b}' not found`,
        [c]: 'no answer within 300 ms',
        [d]: 'the answer is not JSON',
        [e]: 'price 1 (2026-01-05) has no usable close',
        [f]: 'the answer is not a list of prices',
      });
      expect(run.import?.ok).toBe(true);
      for (const x of [a, b, c, d, e, f]) expect(await closes(x)).toEqual(before[x]);
      // the others were fetched and corrected
      const fetched = await closes(ok);
      expect(fetched.at(-1)?.revision).toBe(2);
    } finally {
      quotes.behaviour.clear();
      quotes.defaultClose = original;
    }
  });

  it('writes nothing at all when the import refuses a close, and names the line', async () => {
    const snapshot = async () =>
      (
        await t.db.query<{ n: number; s: string }>(
          `select count(*)::integer as n, coalesce(sum(close * revision), 0)::text as s from public.market_closes`,
        )
      ).rows[0];
    const before = await snapshot();
    const target = tickers[2] as string;
    const original = quotes.defaultClose;
    // rounds to 0.0000 at the import's 4 decimals: "a close must be above zero"
    quotes.defaultClose = (name, date) =>
      name === target.toLowerCase() ? 0.00001 : original(name, date) + 2;
    try {
      const run = await refreshQuotes(deps());
      expect(run.fetched).toBe(0);
      expect(run.import?.ok).toBe(false);
      expect(run.import?.errors[0]).toMatchObject({ column: 'close', message: 'a close must be above zero' });
      expect(await snapshot()).toEqual(before);
    } finally {
      quotes.defaultClose = original;
    }
  });

  it('a wrong key is an error for every security and writes nothing', async () => {
    const run = await refreshQuotes(deps({ key: 'wrong' }));
    expect(run.failed).toHaveLength(tickers.length);
    expect(run.failed[0]?.error).toBe('HTTP 401: Invalid token.');
    expect(run.import).toBeUndefined();
  });
});
