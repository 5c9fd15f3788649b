import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, Search, Store } from 'lucide-react';
import { useDeferredValue } from 'react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { type BrandFilters, brandsSearchQueryOptions, PAGE_SIZE } from '../api/search-brands.ts';
import { BrandCard } from './brand-card.tsx';

/** The directory's answer to its filters: loading, error, no match, none yet, or a page of cards. */
export function BrandDirectoryResults({
  filters,
  onPage,
  onClear,
}: {
  filters: BrandFilters;
  onPage: (page: number) => void;
  onClear: () => void;
}) {
  const result = useQuery(brandsSearchQueryOptions(filters));
  // The cards render from a deferred copy of the data, in an interruptible render (decision 158).
  const shown = useDeferredValue(result.data);
  const filtered = Boolean(filters.q || filters.state || filters.category || filters.verifiedOnly);
  const total = result.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <section aria-label="Brands" aria-busy={result.isFetching} className="mt-8">
      {result.isPending || (!result.isError && shown === undefined) ? (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="brands-loading">
          {Array.from({ length: 6 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <Skeleton key={index} className="h-48 rounded-xl" />
          ))}
        </div>
      ) : result.isError ? (
        <EmptyState
          icon={Store}
          title="Brands could not be loaded"
          actions={<Button onClick={() => void result.refetch()}>Try again</Button>}
        >
          {errorText(result.error)}
        </EmptyState>
      ) : shown === undefined || shown.brands.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={Search}
            title="No brands match"
            actions={
              <Button variant="outline" onClick={onClear}>
                Clear filters
              </Button>
            }
          >
            Try another spelling, or fewer filters.
          </EmptyState>
        ) : (
          <EmptyState icon={Store} title="No brands listed yet">
            Brand profiles will appear here once they are added, searchable by name, state and category.
          </EmptyState>
        )
      ) : (
        <>
          <p className="mb-4 text-muted-foreground text-sm" aria-live="polite" data-testid="brand-count">
            {total} {total === 1 ? 'brand' : 'brands'}
            {pages > 1 ? ` · page ${filters.page} of ${pages}` : ''}
          </p>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {shown.brands.map((brand) => (
              <li key={brand.id}>
                <BrandCard brand={brand} />
              </li>
            ))}
          </ul>
          {pages > 1 ? <BrandDirectoryPager page={filters.page} pages={pages} onPage={onPage} /> : null}
        </>
      )}
    </section>
  );
}

/** Previous and Next, with "Page 2 of 5" between them; a page change is a new entry in the history. */
function BrandDirectoryPager({
  page,
  pages,
  onPage,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}) {
  return (
    <nav aria-label="Pages" className="mt-8 flex items-center justify-center gap-3">
      <Button variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft aria-hidden="true" />
        Previous
      </Button>
      <span className="text-sm tabular-nums">
        Page {page} of {pages}
      </span>
      <Button variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
        <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}
