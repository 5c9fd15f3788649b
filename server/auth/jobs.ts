import type { Job } from '../jobs.ts';
import type { AuthDeps } from './auth.ts';
import { removeExpired } from './db.ts';

/** Rows older than a day are past every expiry (links 1 h, flows 5 min, windows 1 h). */
const HOUSEKEEPING_MAX_AGE_SECONDS = 24 * 3600;

/** The auth service's scheduled work (decision 088). */
export const JOBS: Job<AuthDeps>[] = [
  {
    name: 'auth housekeeping',
    everyMs: 10 * 60 * 1000,
    run: (deps) => removeExpired(deps.app.db, HOUSEKEEPING_MAX_AGE_SECONDS),
  },
];
