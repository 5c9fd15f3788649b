import type { Job } from '../../jobs.ts';
import { type NewsDeps, refreshDue } from './news.ts';

export const NEWS_JOB = 'functions: news feeds';

/** The news area's scheduled work, started with the functions service's (decision 088). */
export const JOBS: Job<{ news: NewsDeps }>[] = [
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
];
