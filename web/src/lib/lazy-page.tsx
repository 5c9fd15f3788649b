import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode } from 'react';

type PageModule<P> = { default: ComponentType<P> };

/**
 * React.lazy remembers a failed import forever, so after a chunk failed to load (offline, or a
 * deploy replaced it) "Try Again" could never succeed. A page made here swaps in a fresh lazy
 * component when `retryFailedPages()` is called; the browser does not cache failed module fetches,
 * so the import really runs again.
 */
const failedPages = new Set<() => void>();

export function retryFailedPages(): void {
  for (const reset of failedPages) reset();
  failedPages.clear();
}

export interface LazyPage<P> {
  (props: P): ReactNode;
  /** Starts loading the chunk early (e.g. when a link to the page is hovered or focused). */
  preload: () => void;
  /**
   * Loads the chunk and resolves when it is there (or failed); the page then renders at once, without
   * suspending. The start-up awaits it before hydrating a prerendered page (decision 157).
   */
  load: () => Promise<void>;
}

/** A thenable that calls back at once: React.lazy takes it as already resolved and does not suspend. */
function resolvedThenable<T>(value: T): Promise<T> {
  const thenable = {
    // biome-ignore lint/suspicious/noThenProperty: a thenable is the point (React.lazy reads it).
    then: (onFulfilled?: (value: T) => unknown) => Promise.resolve(onFulfilled ? onFulfilled(value) : value),
  };
  return thenable as unknown as Promise<T>;
}

export function lazyPage<P extends object>(load: () => Promise<PageModule<P>>): LazyPage<P> {
  let pending: Promise<PageModule<P>> | null = null;
  let loaded: PageModule<P> | null = null;
  let Current: LazyExoticComponent<ComponentType<P>>;

  const fetchModule = (): Promise<PageModule<P>> => {
    // A loaded module is handed over synchronously: React.lazy resolves a thenable that calls back at
    // once without suspending, so hydration does not leave the page's boundary waiting a tick.
    if (loaded) return resolvedThenable(loaded);
    pending ??= load().then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        pending = null;
        failedPages.add(reset);
        throw error;
      },
    );
    return pending;
  };
  const reset = () => {
    Current = lazy(fetchModule);
  };
  reset();

  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module level, like React.lazy.
  const Page = (props: P) => <Current {...props} />;
  Page.load = async () => {
    try {
      await fetchModule();
    } catch {
      // A failed load is retried when the page actually renders (its error boundary shows the failure).
    }
  };
  Page.preload = () => void Page.load();
  return Page;
}
