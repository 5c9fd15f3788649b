import type { Job } from '../jobs.ts';
import { JOBS as GDPR_JOBS } from '../product/gdpr/jobs.ts';
import { JOBS as MAIL_JOBS } from '../product/mail/jobs.ts';
import { JOBS as MARKET_JOBS, QUOTES_JOB } from '../product/market/jobs.ts';
import { NEWS_JOB, JOBS as NEWS_JOBS } from '../product/news/jobs.ts';
import { JOBS as PAYMENTS_JOBS } from '../product/payments/jobs.ts';
import { JOBS as TRASH_JOBS } from '../product/trash/jobs.ts';
import { JOBS as VOTES_JOBS } from '../product/votes/jobs.ts';
import type { FunctionsDeps } from './functions.ts';

/** The functions' scheduled work (decision 088). */
export function functionJobs(deps: FunctionsDeps): Job<FunctionsDeps>[] {
  return JOBS.filter((job) => job.name !== NEWS_JOB || deps.news.refreshMinutes > 0)
    .filter((job) => job.name !== QUOTES_JOB || deps.quotes.provider !== undefined)
    .map((job) => (job.name === NEWS_JOB ? { ...job, everyMs: deps.news.refreshMinutes * 60 * 1000 } : job))
    .map((job) =>
      job.name === QUOTES_JOB ? { ...job, everyMs: deps.quotes.refreshMinutes * 60 * 1000 } : job,
    );
}

export const JOBS: Job<FunctionsDeps>[] = [
  ...NEWS_JOBS,
  ...TRASH_JOBS,
  ...MAIL_JOBS,
  ...VOTES_JOBS,
  ...PAYMENTS_JOBS,
  ...GDPR_JOBS,
  ...MARKET_JOBS,
];
