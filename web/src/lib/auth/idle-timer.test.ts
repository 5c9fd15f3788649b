import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ActivityRecord, type ActivityStore, startIdleTimer } from './idle-timer.ts';

const HOUR = 3_600_000;
const TWO_HOURS = 2 * HOUR;

function memoryStore(
  initial: ActivityRecord | null = null,
): ActivityStore & { value: ActivityRecord | null } {
  const store = {
    value: initial,
    get: () => store.value,
    set: (record: ActivityRecord) => {
      store.value = record;
    },
    clear: () => {
      store.value = null;
    },
  };
  return store;
}

let target: EventTarget;
beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
  target = new EventTarget();
});
afterEach(() => {
  vi.useRealTimers();
});

function start(store = memoryStore(), session = 's-1', timeoutMs = TWO_HOURS) {
  const onIdle = vi.fn();
  const timer = startIdleTimer({ session, timeoutMs, onIdle, target, store });
  return { onIdle, timer, store };
}

const press = (type = 'mousedown') => target.dispatchEvent(new Event(type));

describe('startIdleTimer (product §session: 2 hours, activity throttled to 30 s)', () => {
  it('signs out 2 hours after sign-in without activity', () => {
    const { onIdle } = start();
    vi.advanceTimersByTime(TWO_HOURS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it.each(['mousedown', 'keydown', 'click'])('restarts the timer on %s', (type) => {
    const { onIdle } = start();
    vi.advanceTimersByTime(HOUR);
    press(type);
    vi.advanceTimersByTime(TWO_HOURS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('ignores other events', () => {
    const { onIdle } = start();
    vi.advanceTimersByTime(HOUR);
    press('mousemove');
    press('scroll');
    vi.advanceTimersByTime(HOUR);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('handles activity at most once every 30 s', () => {
    const { onIdle, store } = start();
    vi.advanceTimersByTime(HOUR);
    press();
    const handledAt = store.value?.at;
    vi.advanceTimersByTime(29_999);
    press();
    press('keydown');
    expect(store.value?.at).toBe(handledAt);
    vi.advanceTimersByTime(1);
    press();
    expect(store.value?.at).toBe((handledAt ?? 0) + 30_000);
    vi.advanceTimersByTime(TWO_HOURS);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('counts from the last activity stored for the same session (a reload, another tab)', () => {
    const store = memoryStore({ session: 's-1', at: Date.now() - 90 * 60_000 });
    const { onIdle } = start(store);
    vi.advanceTimersByTime(30 * 60_000 - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('signs a session out at once when it was left alone for longer than the timeout', () => {
    const store = memoryStore({ session: 's-1', at: Date.now() - 3 * HOUR });
    const { onIdle } = start(store);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it("starts afresh for a new session, whatever an older session's record says", () => {
    const store = memoryStore({ session: 's-old', at: Date.now() - 3 * HOUR });
    const { onIdle } = start(store, 's-new');
    expect(onIdle).not.toHaveBeenCalled();
    expect(store.value).toEqual({ session: 's-new', at: Date.now() });
    vi.advanceTimersByTime(TWO_HOURS);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('keeps going while another tab of the session records activity', () => {
    const { onIdle, store } = start();
    vi.advanceTimersByTime(HOUR + 30 * 60_000);
    store.set({ session: 's-1', at: Date.now() });
    vi.advanceTimersByTime(30 * 60_000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(TWO_HOURS - 30 * 60_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('does not let activity after the deadline revive the session (late background timers)', () => {
    const onIdle = vi.fn();
    const timers: Array<() => void> = [];
    let clock = 0;
    startIdleTimer({
      session: 's-1',
      timeoutMs: TWO_HOURS,
      onIdle,
      target,
      store: memoryStore(),
      now: () => clock,
      setTimer: (callback) => timers.push(callback),
      clearTimer: () => {},
    });
    clock = 3 * HOUR; // the timer has not fired yet
    press();
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('stops listening and never fires once stopped', () => {
    const { onIdle, timer, store } = start();
    timer.stop();
    const before = store.value;
    vi.advanceTimersByTime(HOUR);
    press();
    expect(store.value).toBe(before);
    vi.advanceTimersByTime(3 * HOUR);
    expect(onIdle).not.toHaveBeenCalled();
  });

  it('fires once, then is stopped', () => {
    const { onIdle } = start(memoryStore(), 's-1', 5000);
    vi.advanceTimersByTime(5000);
    press();
    vi.advanceTimersByTime(10_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('copes with timeouts longer than a browser timer can wait', () => {
    const { onIdle } = start(memoryStore(), 's-1', 30 * 24 * HOUR);
    vi.advanceTimersByTime(25 * 24 * HOUR);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5 * 24 * HOUR);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });
});
