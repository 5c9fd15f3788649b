import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a service does on a timer rather than for a request (decision 088): removing expired rows,
 * finishing what a crashed operation left behind, fetching a feed. Each service lists its jobs in
 * `<service>/jobs.ts` and its plugin starts them. Every server process runs every job, so a job
 * must be safe to run in several processes at once (idempotent SQL, or an advisory lock it takes).
 */
export interface Job<Deps> {
  /** Names the job in the log: "<name> failed". */
  name: string;
  everyMs: number;
  /** Also run once as the service starts, not only after the first interval. */
  atStart?: boolean;
  run(deps: Deps): Promise<unknown>;
}

export interface RunningJobs {
  /** Stops the timers and waits for runs in progress. */
  stop(): Promise<void>;
}

/** Starts the jobs; runs of one job never overlap, and a failed run is logged and tried again next time. */
export function startJobs<Deps>(
  jobs: readonly Job<Deps>[],
  deps: Deps,
  log: Pick<FastifyBaseLogger, 'warn'>,
): RunningJobs {
  const running = jobs.map((job) => {
    const once = () =>
      job.run(deps).then(
        () => undefined,
        (error: unknown) => log.warn({ err: error }, `${job.name} failed`),
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
