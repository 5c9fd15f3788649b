import { RouterProvider } from 'react-router/dom';
import { ErrorBoundary } from '../components/layout/error-boundary.tsx';
import { ToasterHost } from '../components/ui/toaster-host.tsx';
import { retryFailedPages } from '../lib/lazy-page.tsx';
import { router } from './router.tsx';

export function App() {
  return (
    <ErrorBoundary onReset={retryFailedPages}>
      <RouterProvider router={router} />
      <ToasterHost />
    </ErrorBoundary>
  );
}
