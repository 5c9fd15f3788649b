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
}

export function lazyPage<P extends object>(load: () => Promise<PageModule<P>>): LazyPage<P> {
  let pending: Promise<PageModule<P>> | null = null;
  let Current: LazyExoticComponent<ComponentType<P>>;

  const fetchModule = (): Promise<PageModule<P>> => {
    pending ??= load().catch((error: unknown) => {
      pending = null;
      failedPages.add(reset);
      throw error;
    });
    return pending;
  };
  const reset = () => {
    Current = lazy(fetchModule);
  };
  reset();

  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module level, like React.lazy.
  const Page = (props: P) => <Current {...props} />;
  Page.preload = () => {
    fetchModule().catch(() => {
      // A failed preload is retried when the page actually renders.
    });
  };
  return Page;
}
