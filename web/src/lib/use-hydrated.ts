import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while the page is rendered on the server (the build's prerender) and while React hydrates
 * that HTML; true afterwards and on every client render (decision 157). For what must not work before
 * the app's code runs, such as a form whose fields the browser would otherwise submit on its own.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
