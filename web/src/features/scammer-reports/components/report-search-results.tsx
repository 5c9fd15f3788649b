import { useQuery } from '@tanstack/react-query';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { PAGE_SIZE, searchReportsQueryOptions } from '../api/search-reports.ts';
import { hasFilters } from '../database.ts';
import { ReportCard } from './report-card.tsx';
import type { ReportSearchFilters } from './report-search-filters.ts';

/** The published reports the search finds, a page at a time ("Show more" adds one). */
export function ReportSearchResults({
  filters: { pages, ...filters },
  onMore,
}: {
  filters: ReportSearchFilters;
  onMore: () => void;
}) {
  const userId = useConfirmedUserId();
  const results = useQuery(searchReportsQueryOptions(userId, filters, pages));
  const rows = results.data ?? [];
  const shown = rows.slice(0, PAGE_SIZE * pages);

  return (
    <section aria-labelledby="reports-heading" aria-busy={results.isFetching}>
      {/* The cards' names are h3s: a heading between them and the page's h1 keeps the order (axe heading-order). */}
      <h2 id="reports-heading" className="sr-only">
        Reports
      </h2>
      {results.isPending ? (
        <div className="grid gap-3" data-testid="reports-loading">
          <Skeleton className="h-28" />
          <Skeleton className="h-28" />
        </div>
      ) : results.isError ? (
        <div role="alert" className="grid justify-items-start gap-2">
          <p className="text-destructive dark:text-red-400">{errorText(results.error)}</p>
          <Button variant="outline" size="sm" onClick={() => void results.refetch()}>
            Try again
          </Button>
        </div>
      ) : shown.length === 0 ? (
        <p className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">
          {hasFilters(filters)
            ? 'No published reports match this search. Check the spelling, or try a phone number, email or website.'
            : 'No reports have been published yet.'}
        </p>
      ) : (
        <>
          <p className="mb-3 text-muted-foreground text-sm" aria-live="polite">
            {shown.length === 1
              ? '1 report'
              : `${shown.length}${rows.length > shown.length ? '+' : ''} reports`}
          </p>
          <ul className="grid gap-3">
            {shown.map((report) => (
              <ReportCard key={report.id} report={report} />
            ))}
          </ul>
          {rows.length > shown.length ? (
            <Button variant="outline" className="mt-4" onClick={onMore}>
              Show more
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
