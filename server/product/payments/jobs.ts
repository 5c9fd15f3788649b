import type { Job } from '../../jobs.ts';
import type { SubscriptionsDeps } from './payments.ts';

/** The payments area's scheduled work, started with the functions service's (decision 088). */
export const JOBS: Job<{ subscriptions: SubscriptionsDeps }>[] = [
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
];
