import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { ErrorBoundary } from '#web/components/layout/error-boundary.tsx';
import { ToasterHost } from '#web/components/ui/toaster-host.tsx';
import { retryFailedPages } from '#web/lib/lazy-page.tsx';
import { queryClient } from '#web/lib/query/query-client.ts';
import { AppRoutes } from './router.tsx';

export function App() {
  return (
    <ErrorBoundary onReset={retryFailedPages}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
      <ToasterHost />
    </ErrorBoundary>
  );
}
