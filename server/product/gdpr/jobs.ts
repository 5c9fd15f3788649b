import type { Job } from '../../jobs.ts';
import type { RetentionDeps } from './inactive-accounts.ts';

/** The gdpr area's scheduled work, started with the functions service's (decision 088). */
export const JOBS: Job<{ retention: RetentionDeps }>[] = [
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
];
