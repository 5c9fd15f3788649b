import { useEffect } from 'react';
import { useLocation, useNavigate, useRouteError } from 'react-router';
import { CrashFallback } from '#web/components/layout/crash-fallback.tsx';
import { retryFailedPages } from '#web/lib/lazy-page.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/** The router's errorElement: the crash fallback for anything the layout's own boundary did not catch. */
export function RouteError() {
  const error = useRouteError();
  const location = useLocation();
  const navigate = useNavigate();
  useDocumentTitle('Something went wrong');
  useEffect(() => {
    console.error('Route failed:', error);
  }, [error]);

  // Navigating to the same place gives React Router a new location, which clears its error state.
  const retry = () => {
    retryFailedPages();
    navigate(`${location.pathname}${location.search}${location.hash}`, {
      replace: true,
      state: location.state,
    });
  };
  return (
    <main className="flex min-h-dvh items-center justify-center">
      <CrashFallback onRetry={retry} />
    </main>
  );
}
