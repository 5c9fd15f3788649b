import { RefreshCw, RotateCcw, TriangleAlert } from 'lucide-react';
import { getConfig } from '#web/lib/config.ts';
import { Button } from '../ui/button.tsx';

interface CrashFallbackProps {
  onRetry: () => void;
}

/**
 * What a visitor sees when rendering failed (product §crash-fallback). It depends on nothing but
 * the configuration, so it also works when the router or the layout is what broke.
 */
export function CrashFallback({ onRetry }: CrashFallbackProps) {
  const { supportEmail } = getConfig();
  return (
    <div role="alert" className="mx-auto flex max-w-lg flex-col items-center px-4 py-16 text-center">
      <div className="mb-6 flex size-14 items-center justify-center rounded-full bg-destructive/10 text-destructive">
        <TriangleAlert aria-hidden="true" className="size-7" />
      </div>
      <h1 className="font-bold text-2xl tracking-tight">Something went wrong</h1>
      <p className="mt-3 text-muted-foreground">
        We encountered an unexpected error. Please try refreshing the page or contact support if the problem
        persists.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button onClick={onRetry}>
          <RotateCcw aria-hidden="true" />
          Try Again
        </Button>
        <Button variant="outline" onClick={() => window.location.reload()}>
          <RefreshCw aria-hidden="true" />
          Reload Page
        </Button>
      </div>
      <p className="mt-8 text-muted-foreground text-sm">
        Support:{' '}
        <a href={`mailto:${supportEmail}`} className="font-medium text-primary underline underline-offset-4">
          {supportEmail}
        </a>
      </p>
    </div>
  );
}
