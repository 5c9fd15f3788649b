import type { Job } from '../jobs.ts';
import type { FunctionsDeps } from './functions.ts';
import { sendQueuedMail } from './product-mail.ts';

/** Set-aside blobs of an operation this old belong to a crashed one (decision 072). */
const TRASH_LEASE_SECONDS = 3600;

/** The functions' scheduled work (decision 088). */
export const JOBS: Job<FunctionsDeps>[] = [
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
];
