import { Route, Routes, useLocation } from 'react-router';
import { ErrorBoundary } from '#web/components/layout/error-boundary.tsx';
import { retryFailedPages } from '#web/lib/lazy-page.tsx';
import { RootLayout } from './layout/root-layout.tsx';
import { RouteError } from './layout/route-error.tsx';
import { NotFoundPage, pages } from './pages.ts';
import { NESTED_ROUTES, type RoutePath } from './route-paths.ts';

function routePath(path: RoutePath): string {
  return NESTED_ROUTES.has(path) ? `${path.slice(1)}/*` : path.slice(1);
}

/**
 * The layout, behind the crash fallback for anything its own boundary around the page did not catch
 * (the header, the footer, the layout itself). A new path tries again.
 */
function Layout() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      resetKey={pathname}
      onReset={retryFailedPages}
      fallback={(retry) => <RouteError onRetry={retry} />}
    >
      <RootLayout />
    </ErrorBoundary>
  );
}

/**
 * The route list of product §routes; anything else is the not-found page. Declarative routes (not a
 * data router): the app has no loaders or actions, and the data router's code was about 15 KB of the
 * first render's gzipped JavaScript (decision 150).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        {Object.entries(pages).map(([path, Page]) =>
          path === '/' ? (
            <Route key={path} index element={<Page />} />
          ) : (
            <Route key={path} path={routePath(path as RoutePath)} element={<Page />} />
          ),
        )}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
