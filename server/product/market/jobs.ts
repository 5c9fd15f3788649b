import type { Job } from '../../jobs.ts';
import { type QuoteDeps, refreshQuotes } from './quotes.ts';

export const QUOTES_JOB = 'functions: market quotes';

/** The market area's scheduled work, started with the functions service's (decision 088). */
export const JOBS: Job<{ quotes: QuoteDeps }>[] = [
  {
    // Daily closes from the optional quote provider (MARKET_QUOTES_URL; off by default), written
    // through the all-or-nothing import; one process per interval (decisions 106, 143).
    name: QUOTES_JOB,
    everyMs: 24 * 60 * 60 * 1000,
    atStart: true,
    lease: { name: 'market-quotes', ttlMs: 30 * 60 * 1000 },
    run: (deps) => refreshQuotes(deps.quotes),
  },
];
