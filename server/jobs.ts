import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from './db/driver.ts';
import { claimLease, releaseLease } from './db/leases.ts';
import { jobRuns } from './metrics.ts';

/**
 * Work a service does on a timer rather than for a request (decision 088): removing expired rows,
 * finishing what a crashed operation left behind, fetching a feed. Each service lists its jobs in
 * `<service>/jobs.ts` and its plugin starts them. Every server process runs every job unless the job
 * has a lease: a job without one must be safe to run in several processes at once (idempotent SQL);
 * a job with one runs in one process at a time and once per interval across all of them (decision 106).
 */
export interface Job<Deps> {
  /** Names the job in the log: "<name> failed". */
  name: string;
  everyMs: number;
  /** Also run once as the service starts, not only after the first interval. */
  atStart?: boolean;
  /**
   * Run in one process only, decided by the row `name` of `jobs.leases`. `ttlMs` must exceed the
   * longest run: a lease older than that is taken to belong to a process that died.
   */
  lease?: { name: string; ttlMs: number };
  run(deps: Deps): Promise<unknown>;
}

export interface RunningJobs {
  /** Stops the timers and waits for runs in progress. */
  stop(): Promise<void>;
}

/** Names this process in lease rows (a process restarted on the same host is a new holder). */
export const LEASE_HOLDER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** Where leased jobs claim their lease, and as whom (this process unless a test names another). */
export interface LeaseOptions {
  db: Queryable;
  holder?: string;
}

/**
 * Starts the jobs; runs of one job never overlap, and a failed run is logged and tried again next time.
 * `leases` is required when any job has a lease.
 */
export function startJobs<Deps>(
  jobs: readonly Job<Deps>[],
  deps: Deps,
  log: Pick<FastifyBaseLogger, 'warn'>,
  leases?: LeaseOptions,
): RunningJobs {
  const running = jobs.map((job) => {
    const once = () =>
      runOnce(job, deps, leases).then(
        (ran) => {
          jobRuns.inc({ job: job.name, outcome: ran ? 'ok' : 'skipped' });
        },
        (error: unknown) => {
          jobRuns.inc({ job: job.name, outcome: 'failed' });
          log.warn({ err: error }, `${job.name} failed`);
        },
      );
    const state = { last: job.atStart ? once() : Promise.resolve() };
    const timer = setInterval(() => {
      state.last = state.last.then(once);
    }, job.everyMs);
    timer.unref();
    return { timer, state };
  });
  return {
    async stop() {
      for (const { timer } of running) clearInterval(timer);
      await Promise.all(running.map(({ state }) => state.last));
    },
  };
}

/** One run of `job`: directly, or under its lease when it has one (false: another process has it). */
export async function runOnce<Deps>(job: Job<Deps>, deps: Deps, leases?: LeaseOptions): Promise<boolean> {
  if (!job.lease) {
    await job.run(deps);
    return true;
  }
  if (!leases) throw new Error(`${job.name} has a lease but startJobs was given no database`);
  const { db, holder = LEASE_HOLDER } = leases;
  const { name, ttlMs } = job.lease;
  if (!(await claimLease(db, name, holder, job.everyMs, ttlMs))) return false;
  try {
    await job.run(deps);
  } finally {
    await releaseLease(db, name, holder);
  }
  return true;
}
