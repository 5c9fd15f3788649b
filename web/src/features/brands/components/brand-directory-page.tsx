import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, Search, Store } from 'lucide-react';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { type BrandFilters, brandsSearchQueryOptions, PAGE_SIZE } from '../api/brands.ts';
import { BRAND_CATEGORIES, BRAND_SORT_LABELS, BRAND_SORTS, type BrandSort, US_STATES } from '../types.ts';
import { BrandCard } from './brand-card.tsx';

function filtersOf(params: URLSearchParams): BrandFilters {
  const state = params.get('state');
  const category = params.get('category');
  const sort = params.get('sort');
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return {
    q: (params.get('q') ?? '').slice(0, 100),
    state: state && US_STATES.some(([code]) => code === state) ? state : null,
    category: category && (BRAND_CATEGORIES as readonly string[]).includes(category) ? category : null,
    verifiedOnly: params.get('verified') === '1',
    sort: sort && (BRAND_SORTS as readonly string[]).includes(sort) ? (sort as BrandSort) : null,
    page: Number.isFinite(page) && page >= 1 && page <= 4000 ? page : 1,
  };
}

/** product §brand-directory: search (typo-tolerant), filters, sorts and pages, all kept in the URL. */
export function BrandDirectoryPage() {
  useDocumentTitle('Brand Directory');
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersOf(params), [params]);
  const [search, setSearch] = useState(filters.q);
  const result = useQuery(brandsSearchQueryOptions(filters));
  // The cards render from a deferred copy of the data, in an interruptible render (decision 158).
  const shown = useDeferredValue(result.data);

  // Changes apply to the address as it is now (the search box writes it after a delay).
  function update(changes: Record<string, string | null>) {
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: !('page' in changes) });
  }

  const currentQ = useRef(filters.q);
  currentQ.current = filters.q;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the typed text changes, by design
  useEffect(() => {
    if (search.trim() === currentQ.current) return;
    const timer = setTimeout(() => update({ q: search.trim() || null }), 300);
    return () => clearTimeout(timer);
  }, [search]);

  const filtered = Boolean(filters.q || filters.state || filters.category || filters.verifiedOnly);
  const sort: BrandSort = filters.sort ?? (filters.q ? 'relevance' : 'name');
  const sorts: BrandSort[] = filters.q ? ['relevance', ...BRAND_SORTS] : [...BRAND_SORTS];
  const total = result.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <PageContainer>
      <PageHeader
        icon={Store}
        title="Brand Directory"
        description="Find cannabis brands with their licence details, locations, products and community scores."
      />
      <form
        aria-label="Search and filter brands"
        className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr]"
        onSubmit={(event) => {
          event.preventDefault();
          update({ q: search.trim() || null });
        }}
      >
        <div className="grid gap-1.5">
          <Label htmlFor="brand-search">Search by name</Label>
          <div className="relative">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id="brand-search"
              type="search"
              className="pl-9"
              maxLength={100}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="e.g. Green Thumb — typos are fine"
            />
          </div>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="brand-state">State</Label>
          <NativeSelect
            id="brand-state"
            value={filters.state ?? ''}
            onChange={(event) => update({ state: event.target.value })}
          >
            <option value="">All states</option>
            {US_STATES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="brand-category">Category</Label>
          <NativeSelect
            id="brand-category"
            value={filters.category ?? ''}
            onChange={(event) => update({ category: event.target.value })}
          >
            <option value="">All categories</option>
            {BRAND_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="brand-sort">Sort by</Label>
          <NativeSelect
            id="brand-sort"
            value={sort}
            onChange={(event) => update({ sort: event.target.value })}
          >
            {sorts.map((value) => (
              <option key={value} value={value}>
                {BRAND_SORT_LABELS[value]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <label className="flex items-center gap-2 text-sm sm:col-span-2 lg:col-span-4">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={filters.verifiedOnly}
            onChange={(event) => update({ verified: event.target.checked ? '1' : null })}
          />
          Verified licences only (checked in the last 12 months)
        </label>
      </form>

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
                <Button
                  variant="outline"
                  onClick={() => {
                    setSearch('');
                    update({ q: null, state: null, category: null, verified: null, sort: null });
                  }}
                >
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
            {pages > 1 ? (
              <nav aria-label="Pages" className="mt-8 flex items-center justify-center gap-3">
                <Button
                  variant="outline"
                  disabled={filters.page <= 1}
                  onClick={() => update({ page: filters.page - 1 > 1 ? String(filters.page - 1) : null })}
                >
                  <ChevronLeft aria-hidden="true" />
                  Previous
                </Button>
                <span className="text-sm tabular-nums">
                  Page {filters.page} of {pages}
                </span>
                <Button
                  variant="outline"
                  disabled={filters.page >= pages}
                  onClick={() => update({ page: String(filters.page + 1) })}
                >
                  Next
                  <ChevronRight aria-hidden="true" />
                </Button>
              </nav>
            ) : null}
          </>
        )}
      </section>
    </PageContainer>
  );
}
