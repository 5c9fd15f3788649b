import { CrashFallback } from '#web/components/layout/crash-fallback.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/** The crash fallback for the whole layout: what shows when the header, footer or layout failed. */
export function RouteError({ onRetry }: { onRetry: () => void }) {
  useDocumentTitle('Something went wrong');
  return (
    <main className="flex min-h-dvh items-center justify-center">
      <CrashFallback onRetry={onRetry} />
    </main>
  );
}
