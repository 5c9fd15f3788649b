import { logSecurityEvent, type SecurityEvent } from './security-events.ts';

/**
 * Product §suspicious-activity "Suspicious activity logged: above 100 clicks or 500 key presses per 60 s". A
 * sliding window per kind of input; crossing a threshold logs one high-risk security event, and the kind is
 * not reported again until its count has dropped back under the threshold (one event per burst, not
 * one per click).
 */
export const SUSPICIOUS_ACTIVITY_LIMITS = { clicks: 100, keyPresses: 500, windowMs: 60_000 } as const;

export type ActivityKind = 'click' | 'keypress';

export class ActivityCounter {
  private readonly times: Record<ActivityKind, number[]> = { click: [], keypress: [] };
  private readonly reported: Record<ActivityKind, boolean> = { click: false, keypress: false };

  constructor(
    private readonly onSuspicious: (kind: ActivityKind, count: number) => void,
    private readonly limits: {
      clicks: number;
      keyPresses: number;
      windowMs: number;
    } = SUSPICIOUS_ACTIVITY_LIMITS,
  ) {}

  /** Counts one input at `now` (ms). */
  record(kind: ActivityKind, now: number): void {
    const limit = kind === 'click' ? this.limits.clicks : this.limits.keyPresses;
    const times = this.times[kind];
    times.push(now);
    while (times.length > 0 && (times[0] as number) <= now - this.limits.windowMs) times.shift();
    if (times.length > limit) {
      if (!this.reported[kind]) {
        this.reported[kind] = true;
        this.onSuspicious(kind, times.length);
      }
    } else {
      this.reported[kind] = false;
    }
  }
}

export function suspiciousActivityEvent(kind: ActivityKind, count: number): SecurityEvent {
  const what = kind === 'click' ? 'clicks' : 'key presses';
  const limit = kind === 'click' ? SUSPICIOUS_ACTIVITY_LIMITS.clicks : SUSPICIOUS_ACTIVITY_LIMITS.keyPresses;
  return {
    type: 'suspicious_activity',
    category: 'behaviour',
    action: kind === 'click' ? 'rapid_clicking' : 'rapid_typing',
    description: `More than ${limit} ${what} within 60 seconds.`,
    riskLevel: 'high',
    data: { count, window_seconds: SUSPICIOUS_ACTIVITY_LIMITS.windowMs / 1000 },
  };
}

/**
 * Listens to clicks and key presses on the whole document (passively, in the capture phase so
 * handlers that stop propagation still count). Mounted once by the app shell; returns the cleanup.
 */
export function startSuspiciousActivityMonitor(
  log: (event: SecurityEvent) => void = (event) => void logSecurityEvent(event),
): () => void {
  const counter = new ActivityCounter((kind, count) => log(suspiciousActivityEvent(kind, count)));
  const onClick = () => counter.record('click', Date.now());
  const onKey = () => counter.record('keypress', Date.now());
  const options = { capture: true, passive: true } as const;
  document.addEventListener('click', onClick, options);
  document.addEventListener('keydown', onKey, options);
  return () => {
    document.removeEventListener('click', onClick, options);
    document.removeEventListener('keydown', onKey, options);
  };
}
