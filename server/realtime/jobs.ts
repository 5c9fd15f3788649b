import type { RealtimeConfig } from '../config.ts';

/**
 * Realtime's timed work (decision 088), in one place. Unlike the other services' jobs (the runner of
 * server/jobs.ts, which waits for a run in progress when stopping), these are the protocol's own
 * clocks: they stop at once on shutdown and never hold the process open, so they stay plain unref'd
 * intervals.
 */
export interface Timers {
  stop(): void;
}

function every(ms: number, run: () => void): NodeJS.Timeout {
  const timer = setInterval(run, ms);
  timer.unref();
  return timer;
}

/** The change feed's poll: new changes are read even when a NOTIFY was lost. */
export function startChangePoll(config: RealtimeConfig, wake: () => void): Timers {
  const timer = every(config.pollIntervalMs, wake);
  return { stop: () => clearInterval(timer) };
}

/** The heartbeat (this process's row, other processes' liveness) and the idle-connection sweep. */
export function startServiceTimers(
  config: RealtimeConfig,
  heartbeat: () => void,
  sweepIdle: () => void,
): Timers {
  const beat = every(config.heartbeatIntervalMs, heartbeat);
  const sweep = every(Math.min(5000, config.idleTimeoutMs / 2), sweepIdle);
  return {
    stop: () => {
      clearInterval(beat);
      clearInterval(sweep);
    },
  };
}
