import type { ReactNode } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';

/** What a TanStack query tells a screen about its state. */
export interface QueryStatus {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * A list's or a page's loading and error states (decision 090): placeholders while it loads (announced as
 * "Loading <what>…"), and on failure the reason with "Try Again". Renders nothing once data is there.
 */
export function QueryState({
  what,
  query,
  loading,
}: {
  /** The thing loaded, as in "Loading the bookings…" and "The bookings could not be loaded." */
  what: string;
  query: QueryStatus;
  /** Placeholders of the final layout's size; default: six list rows. */
  loading?: ReactNode;
}): ReactNode {
  if (query.isPending) {
    return (
      <div role="status" className="grid gap-2">
        <span className="sr-only">Loading {what}…</span>
        {loading ?? [0, 1, 2, 3, 4, 5].map((index) => <Skeleton key={index} className="h-12 w-full" />)}
      </div>
    );
  }
  if (query.isError) {
    return (
      <div role="alert" className="rounded-xl border border-destructive/40 p-6">
        <p className="font-medium">The {what} could not be loaded.</p>
        <p className="mt-1 text-muted-foreground text-sm">{errorText(query.error)}</p>
        <Button className="mt-4" variant="outline" onClick={() => void query.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }
  return null;
}

/** Previous / Next under a list, with a live summary ("1,204 members · page 2 of 49"). */
export function Pager({
  label,
  summary,
  page,
  pages,
  more = false,
  onPage,
}: {
  /** The navigation's name: "Pages of <label>". */
  label: string;
  summary: ReactNode;
  page: number;
  pages: number;
  /** Offers Next past `pages` too (the page count is an estimate and this page was full). */
  more?: boolean;
  onPage: (page: number) => void;
}) {
  return (
    <nav aria-label={`Pages of ${label}`} className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-muted-foreground text-sm" aria-live="polite">
        {summary}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="outline" disabled={page >= pages && !more} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
