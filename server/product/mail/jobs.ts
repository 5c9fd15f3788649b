import type { Job } from '../../jobs.ts';
import { type ProductMailDeps, sendQueuedMail } from './product-mail.ts';

/** The mail area's scheduled work, started with the functions service's (decision 088). */
export const JOBS: Job<{ productMail: ProductMailDeps }>[] = [
  {
    // Mail the database queued (a booking confirmed or declined, an account suspended; decision 101).
    name: 'functions: product mail',
    everyMs: 2000,
    atStart: true,
    run: (deps) => sendQueuedMail(deps.productMail),
  },
];
