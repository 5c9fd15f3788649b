import { useSyncExternalStore } from 'react';

/**
 * Client state shared across the page (who is signed in, the toasts, whether a dialog is open, the
 * theme): one value, replaced whole, with subscribers told only when it really changed. Server state
 * does not belong here; it goes through TanStack Query (decision 090).
 */
export interface Store<T> {
  get: () => T;
  /** Replaces the value (or derives it from the current one); subscribers hear of real changes only. */
  set: (next: T | ((current: T) => T)) => void;
  subscribe: (listener: () => void) => () => void;
}

export interface StoreOptions<T> {
  /** When two values count as the same (no change, no notification). Default: Object.is. */
  equals?: (a: T, b: T) => boolean;
}

/**
 * A store whose first value is `initial`, or what `initial()` returns when the store is first read
 * (for values read from the browser, such as a stored session, that must wait until they are needed).
 */
export function createStore<T>(initial: T | (() => T), options: StoreOptions<T> = {}): Store<T> {
  const equals = options.equals ?? Object.is;
  const listeners = new Set<() => void>();
  let started = false;
  let value: T;

  const get = (): T => {
    if (!started) {
      value = typeof initial === 'function' ? (initial as () => T)() : initial;
      started = true;
    }
    return value;
  };

  return {
    get,
    set(next) {
      const current = get();
      const resolved = typeof next === 'function' ? (next as (current: T) => T)(current) : next;
      if (equals(current, resolved)) return;
      value = resolved;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * Reads a store in a component, re-rendering on change. `select` picks a part; it must return a value
 * that stays the same while the state does (a field, a boolean), not a new object on every call.
 */
export function useStore<T>(store: Store<T>): T;
export function useStore<T, S>(store: Store<T>, select: (state: T) => S): S;
export function useStore<T, S>(store: Store<T>, select?: (state: T) => S): T | S {
  const read: () => T | S = select ? () => select(store.get()) : store.get;
  return useSyncExternalStore<T | S>(store.subscribe, read, read);
}
