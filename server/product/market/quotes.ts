import type { FastifyBaseLogger } from 'fastify';
import type { MarketQuotesConfig } from '../../config.ts';
import type { Database } from '../../db/driver.ts';
import { type CloseRow, type ImportResult, importCloses } from './closes-import.ts';
import { securitiesToRefresh } from './db.ts';

/**
 * The optional quote provider (product §market-index, decision 143): daily closes of the securities
 * in `market_securities`, fetched from a configured HTTP provider on a schedule (a leased job, one
 * process per interval) and written through the same all-or-nothing import as a CSV file
 * (public.market_import_closes: row checks, revisions, sources, as-of, recompute). Off unless
 * MARKET_QUOTES_URL is set.
 *
 * A provider is anything that answers `fetchCloses`; the one shipped speaks the Tiingo end-of-day
 * protocol (`GET {base}/tiingo/daily/{ticker}/prices?startDate&endDate`, `Authorization: Token key`,
 * a JSON array of `{date, close, …}`), which other vendors and proxies also offer.
 */

export interface Quote {
  /** YYYY-MM-DD */
  date: string;
  /** The close as the import reads it: a decimal string with up to 4 decimals. */
  close: string;
}

export interface QuoteProvider {
  /** Names the provider in each close's source. */
  readonly label: string;
  /** The closes of `ticker` from `from` to `to` (inclusive); throws QuoteError when the answer is unusable. */
  fetchCloses(ticker: string, from: string, to: string, signal: AbortSignal): Promise<Quote[]>;
}

/** A provider answer that cannot be used: an HTTP error, a timeout, or a body that is not closes. */
export class QuoteError extends Error {}

/** The largest provider answer read for one security (a year of closes is about 60 KB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const DATE = /^(\d{4}-\d{2}-\d{2})(T[0-9:.]+Z?)?$/;

async function readCapped(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new QuoteError(`the answer is larger than ${limit / 1024 / 1024} MB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a provider answer: every element must carry a date and a positive, finite close. */
export function parseTiingoCloses(text: string): Quote[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new QuoteError('the answer is not JSON');
  }
  if (!Array.isArray(body)) throw new QuoteError('the answer is not a list of prices');
  return body.map((item: unknown, index) => {
    const entry = (item ?? {}) as { date?: unknown; close?: unknown };
    const match = typeof entry.date === 'string' ? DATE.exec(entry.date) : null;
    if (!match) throw new QuoteError(`price ${index + 1} has no date`);
    const close = entry.close;
    if (typeof close !== 'number' || !Number.isFinite(close) || close <= 0 || close >= 1e10) {
      throw new QuoteError(`price ${index + 1} (${match[1]}) has no usable close`);
    }
    // numeric(14, 4) keeps 4 decimals; a provider's float is rounded to them here, visibly.
    return { date: match[1] as string, close: close.toFixed(4) };
  });
}

export function tiingoProvider(options: { url: string; key?: string; timeoutMs: number }): QuoteProvider {
  const base = new URL(options.url);
  return {
    label: `quote provider ${base.host}`,
    async fetchCloses(ticker, from, to, signal) {
      const url = new URL(
        `${base.pathname.replace(/\/$/, '')}/tiingo/daily/${encodeURIComponent(ticker.toLowerCase())}/prices`,
        base,
      );
      url.searchParams.set('startDate', from);
      url.searchParams.set('endDate', to);
      url.searchParams.set('resampleFreq', 'daily');
      const headers: Record<string, string> = { accept: 'application/json' };
      if (options.key) headers.authorization = `Token ${options.key}`;
      let response: Response;
      try {
        response = await fetch(url, {
          headers,
          redirect: 'error',
          signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]),
        });
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === 'TimeoutError') throw new QuoteError(`no answer within ${options.timeoutMs} ms`);
        if (name === 'AbortError') throw error;
        throw new QuoteError(`the provider could not be reached (${(error as Error).message})`);
      }
      let text: string;
      try {
        text = await readCapped(response, MAX_BODY_BYTES);
      } catch (error) {
        if (error instanceof QuoteError) throw error;
        const name = (error as { name?: string }).name;
        if (name === 'TimeoutError') throw new QuoteError(`no answer within ${options.timeoutMs} ms`);
        throw new QuoteError(`the answer was cut off (${(error as Error).message})`);
      }
      if (!response.ok) {
        let detail = '';
        try {
          const parsed = JSON.parse(text) as { detail?: unknown };
          if (typeof parsed.detail === 'string') detail = `: ${parsed.detail.slice(0, 200)}`;
        } catch {
          // the status says enough
        }
        throw new QuoteError(`HTTP ${response.status}${detail}`);
      }
      return parseTiingoCloses(text);
    },
  };
}

export interface QuoteDeps {
  db: Database;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** Undefined when MARKET_QUOTES_URL is not set: the job is not scheduled. */
  provider: QuoteProvider | undefined;
  refreshMinutes: number;
  lookbackDays: number;
  historyDays: number;
  shutdown: AbortSignal;
}

export function quoteDeps(
  config: MarketQuotesConfig,
  db: Database,
  log: QuoteDeps['log'],
  shutdown: AbortSignal,
): QuoteDeps {
  return {
    db,
    log,
    provider: config.url
      ? tiingoProvider({ url: config.url, key: config.key, timeoutMs: config.timeoutMs })
      : undefined,
    refreshMinutes: config.refreshMinutes,
    lookbackDays: config.lookbackDays,
    historyDays: config.historyDays,
    shutdown,
  };
}

export interface QuoteRun {
  securities: number;
  /** Closes the provider returned and the import took (new, revised, unchanged). */
  fetched: number;
  /** Securities whose answer was unusable; their closes are left as they were. */
  failed: { ticker: string; error: string }[];
  /** The import's answer (undefined when nothing was fetched). */
  import?: ImportResult;
}

const PARALLEL = 4;

/**
 * One run: for each security, the closes from a few days before its last real close (corrections
 * arrive late) or, for one without, the last MARKET_QUOTES_HISTORY_DAYS days, up to today. A security
 * whose answer is unusable is skipped and named; all the others' closes are imported in one
 * transaction, all or nothing, as a file would be.
 */
export async function refreshQuotes(deps: QuoteDeps): Promise<QuoteRun> {
  const { provider } = deps;
  if (!provider) throw new Error('no quote provider is configured (MARKET_QUOTES_URL)');
  const securities = await securitiesToRefresh(deps.db, deps.lookbackDays, deps.historyDays);
  const rows: CloseRow[] = [];
  const failed: QuoteRun['failed'] = [];
  const source = `${provider.label}, end-of-day close`;
  let next = 0;
  const worker = async () => {
    while (next < securities.length && !deps.shutdown.aborted) {
      const security = securities[next++] as (typeof securities)[number];
      try {
        const quotes = await provider.fetchCloses(security.ticker, security.from, security.to, deps.shutdown);
        for (const quote of quotes) {
          // the provider may answer days outside the range asked (or today's unfinished session)
          if (quote.date < security.from || quote.date > security.to) continue;
          rows.push({ ticker: security.ticker, date: quote.date, close: quote.close, source });
        }
      } catch (error) {
        if (deps.shutdown.aborted) return;
        const message = error instanceof QuoteError ? error.message : String(error);
        failed.push({ ticker: security.ticker, error: message });
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  if (deps.shutdown.aborted) return { securities: securities.length, fetched: 0, failed };
  failed.sort((a, b) => a.ticker.localeCompare(b.ticker));
  for (const { ticker, error } of failed) deps.log.warn({ ticker, error }, 'market quotes: security skipped');
  if (rows.length === 0) return { securities: securities.length, fetched: 0, failed };
  // duplicates within one answer would be refused by the import; the last one the provider sent wins
  const unique = [...new Map(rows.map((row) => [`${row.ticker} ${row.date}`, row])).values()];
  const result = await deps.db.transaction((tx) => importCloses(tx, unique, true));
  if (!result.ok) {
    deps.log.warn({ errors: result.errors.slice(0, 20) }, 'market quotes: the import refused the closes');
  } else {
    deps.log.info(
      { new: result.new, revised: result.revised, unchanged: result.unchanged, failed: failed.length },
      'market quotes: closes imported',
    );
  }
  return { securities: securities.length, fetched: result.ok ? unique.length : 0, failed, import: result };
}
