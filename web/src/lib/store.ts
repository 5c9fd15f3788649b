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
  /**
   * The value a server render shows and hydration starts from (`serverValue`), or `get` when the store
   * has none. React re-renders with the browser's value right after hydrating (decision 157).
   */
  getServerValue: () => T;
}

export interface StoreOptions<T> {
  /** When two values count as the same (no change, no notification). Default: Object.is. */
  equals?: (a: T, b: T) => boolean;
  /**
   * For values read from the browser (the stored session, the theme): what the build's prerendered
   * HTML shows, so hydration matches it. Without one the store must hold the same value on the server.
   */
  serverValue?: T;
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

  const serverValue = options.serverValue;
  return {
    get,
    // In the browser, the current value whenever it equals the server's: hydration then has nothing
    // to re-render (React compares the two by identity).
    getServerValue:
      serverValue === undefined
        ? get
        : () => (typeof window !== 'undefined' && equals(get(), serverValue) ? get() : serverValue),
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
  const readServer: () => T | S = select ? () => select(store.getServerValue()) : store.getServerValue;
  return useSyncExternalStore<T | S>(store.subscribe, read, readServer);
}
