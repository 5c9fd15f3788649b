import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { ErrorBoundary } from '#web/components/layout/error-boundary.tsx';
import { ToasterHost } from '#web/components/ui/toaster-host.tsx';
import { retryFailedPages } from '#web/lib/lazy-page.tsx';
import { queryClient } from '#web/lib/query/query-client.ts';
import { AppRoutes } from './router.tsx';

/** The performance mark of the app's first commit (bench/bundle.ts counts the scripts before it). */
export const APP_READY_MARK = 'highgrade:app-ready';

/**
 * Everything around the router. The browser wraps the routes in a BrowserRouter (`App`); the build's
 * prerender (web/src/prerender.tsx) in a StaticRouter, so both render the same tree (decision 157).
 */
export function AppFrame({ children }: { children: ReactNode }) {
  // After the first commit (the hydration of a prerendered page, or the first render of an empty one),
  // the page is the app's: what is typed or clicked from now on is not lost. Browser tests wait for
  // this mark before using a page (tests/e2e/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.appReady = '';
    performance.mark?.(APP_READY_MARK);
  }, []);
  return (
    <ErrorBoundary onReset={retryFailedPages}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      <ToasterHost />
    </ErrorBoundary>
  );
}

export function App() {
  return (
    <AppFrame>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppFrame>
  );
}
