import type { Job } from '../../jobs.ts';
import type { VotesDeps } from './votes.ts';

/** The votes area's scheduled work, started with the functions service's (decision 088). */
export const JOBS: Job<{ votes: VotesDeps }>[] = [
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
];
