/**
 * Auto sign-out (product §session): a member is signed out after `timeoutMs` (2 hours) since sign-in or
 * their last activity. Mouse press, key press or click restarts the timer, handled at most once every
 * 30 s. Pure logic with injected clock, timers and storage, so it is unit-tested without a browser.
 *
 * The last activity is shared through storage, keyed by the session, so activity in one tab keeps the
 * other tabs of the same session signed in, and a session that was left alone for longer than the
 * timeout (tab closed, laptop asleep) is signed out as soon as the app sees it again.
 */
export const ACTIVITY_EVENTS = ['mousedown', 'keydown', 'click'] as const;
export const ACTIVITY_THROTTLE_MS = 30_000;
/** setTimeout fires at once for delays beyond a signed 32-bit number of milliseconds. */
const MAX_TIMER_MS = 2_147_483_647;

export interface ActivityRecord {
  /** The session the activity belongs to (see sessionKeyOf). */
  session: string;
  /** Epoch milliseconds. */
  at: number;
}

export interface ActivityStore {
  get(): ActivityRecord | null;
  set(record: ActivityRecord): void;
  clear(): void;
}

type EventSource = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

export interface IdleTimerOptions {
  session: string;
  timeoutMs: number;
  onIdle: () => void;
  target: EventSource;
  store: ActivityStore;
  throttleMs?: number;
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export interface IdleTimer {
  stop(): void;
}

export function startIdleTimer(options: IdleTimerOptions): IdleTimer {
  const {
    session,
    timeoutMs,
    onIdle,
    target,
    store,
    throttleMs = ACTIVITY_THROTTLE_MS,
    now = Date.now,
    setTimer = (callback, ms) => setTimeout(callback, ms),
    clearTimer = (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  } = options;

  const stored = store.get();
  let lastActivity = stored?.session === session ? stored.at : now();
  if (stored?.session !== session) store.set({ session, at: lastActivity });
  let lastHandled = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;
  let stopped = false;

  /** Another tab of the same session may have seen activity more recently. */
  const latestActivity = (): number => {
    const shared = store.get();
    if (shared?.session === session && shared.at > lastActivity) lastActivity = shared.at;
    return lastActivity;
  };

  const expire = () => {
    stop();
    onIdle();
  };

  const schedule = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
    const remaining = latestActivity() + timeoutMs - now();
    if (remaining <= 0) {
      expire();
      return;
    }
    timer = setTimer(schedule, Math.min(remaining, MAX_TIMER_MS));
  };

  const onActivity = () => {
    if (stopped) return;
    const at = now();
    if (at - lastHandled < throttleMs) return;
    lastHandled = at;
    // A background tab's timer may run late: activity after the deadline must not revive the session.
    if (at - latestActivity() >= timeoutMs) {
      expire();
      return;
    }
    lastActivity = at;
    store.set({ session, at });
    schedule();
  };

  function stop() {
    if (stopped) return;
    stopped = true;
    if (timer !== null) clearTimer(timer);
    timer = null;
    for (const type of ACTIVITY_EVENTS) target.removeEventListener(type, onActivity, true);
  }

  for (const type of ACTIVITY_EVENTS) target.addEventListener(type, onActivity, true);
  schedule();
  return { stop };
}

/** The activity record in localStorage (shared by the tabs of one browser). */
export function localActivityStore(key = 'highgrade:last-activity'): ActivityStore {
  return {
    get() {
      try {
        const value: unknown = JSON.parse(window.localStorage.getItem(key) ?? 'null');
        if (
          value &&
          typeof value === 'object' &&
          'session' in value &&
          typeof value.session === 'string' &&
          'at' in value &&
          typeof value.at === 'number'
        ) {
          return { session: value.session, at: value.at };
        }
      } catch {
        // Unreadable: as if nothing was stored.
      }
      return null;
    },
    set(record) {
      try {
        window.localStorage.setItem(key, JSON.stringify(record));
      } catch {
        // Storage full or blocked: this tab still keeps its own timer.
      }
    },
    clear() {
      try {
        window.localStorage.removeItem(key);
      } catch {
        // Nothing to clear.
      }
    },
  };
}
