import type { Job } from '../jobs.ts';
import { refreshQuotes } from '../market/quotes.ts';
import type { FunctionsDeps } from './functions.ts';
import { refreshDue } from './news-feeds.ts';
import { sendQueuedMail } from './product-mail.ts';

/** Set-aside blobs of an operation this old belong to a crashed one (decision 072). */
const TRASH_LEASE_SECONDS = 3600;

/** The functions' scheduled work (decision 088). */
export function functionJobs(deps: FunctionsDeps): Job<FunctionsDeps>[] {
  return JOBS.filter((job) => job.name !== NEWS_JOB || deps.news.refreshMinutes > 0)
    .filter((job) => job.name !== QUOTES_JOB || deps.quotes.provider !== undefined)
    .map((job) => (job.name === NEWS_JOB ? { ...job, everyMs: deps.news.refreshMinutes * 60 * 1000 } : job))
    .map((job) =>
      job.name === QUOTES_JOB ? { ...job, everyMs: deps.quotes.refreshMinutes * 60 * 1000 } : job,
    );
}

const QUOTES_JOB = 'functions: market quotes';

const NEWS_JOB = 'functions: news feeds';

export const JOBS: Job<FunctionsDeps>[] = [
  {
    // Fetch the enabled news sources (NEWS_REFRESH_MINUTES; 0 turns the schedule off). Under the lease
    // one process runs it; each source is also claimed before it is fetched (decision 112).
    name: NEWS_JOB,
    everyMs: 30 * 60 * 1000,
    atStart: true,
    // One process fetches per interval (decision 106); a run takes at most a few fetch deadlines.
    lease: { name: 'news-feeds', ttlMs: 10 * 60 * 1000 },
    run: (deps) => refreshDue(deps.news),
  },
  {
    // Finish what a crashed or failed deletion left behind: at start, and every few minutes.
    name: 'functions: blob trash sweep',
    everyMs: 10 * 60 * 1000,
    atStart: true,
    run: (deps) => deps.deletion.trash.sweep(TRASH_LEASE_SECONDS),
  },
  {
    // Mail the database queued (a booking confirmed or declined, an account suspended; decision 101).
    name: 'functions: product mail',
    everyMs: 2000,
    atStart: true,
    run: (deps) => sendQueuedMail(deps.productMail),
  },
  {
    // Pass or Gas: pending votes start counting once their accounts are old enough (decision 116).
    name: 'functions: vote housekeeping',
    everyMs: 60 * 1000,
    atStart: true,
    run: (deps) => deps.votes.housekeeping(),
  },
  {
    // Pass or Gas: open pages follow tallies live through a broadcast of the tallies changed in the
    // last second (decision 156). No lease: every process may run it, each change is sent once.
    name: 'functions: live tallies',
    everyMs: 1000,
    run: (deps) => deps.votes.broadcastTallies(),
  },
  {
    // "Your Scammer Network access ends soon": hourly, by one process (decision 106); the database
    // remembers whom it told, so a second run tells nobody twice.
    name: 'functions: subscription reminders',
    everyMs: 60 * 60 * 1000,
    atStart: true,
    lease: { name: 'subscription-reminders', ttlMs: 10 * 60 * 1000 },
    run: (deps) => deps.subscriptions.remind(),
  },
  {
    // Stripe webhook events older than 90 days are deleted: daily, by one process (decision 133). At
    // start too: processes restarted more often than daily would otherwise never prune (one delete).
    name: 'functions: payment events pruning',
    everyMs: 24 * 60 * 60 * 1000,
    atStart: true,
    lease: { name: 'stripe-events-prune', ttlMs: 10 * 60 * 1000 },
    run: (deps) => deps.subscriptions.pruneEvents(),
  },
  {
    // "Delete my account when inactive": warned 14 days before, then erased as a self-service deletion
    // is (decision 192). Daily, by one process; at start too, as the pruning below.
    name: 'functions: inactive accounts',
    everyMs: 24 * 60 * 60 * 1000,
    atStart: true,
    lease: { name: 'inactive-accounts', ttlMs: 60 * 60 * 1000 },
    run: (deps) => deps.retention.eraseInactive(),
  },
  {
    // Security logs (security events, the auth audit log) older than 12 months are deleted: daily, by
    // one process (decision 194).
    name: 'functions: security log retention',
    everyMs: 24 * 60 * 60 * 1000,
    atStart: true,
    lease: { name: 'security-log-retention', ttlMs: 10 * 60 * 1000 },
    run: (deps) => deps.retention.pruneSecurityLogs(),
  },
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
