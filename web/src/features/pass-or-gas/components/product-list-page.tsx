import { useQuery } from '@tanstack/react-query';
import { Info, Search, ThumbsUp } from 'lucide-react';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { brandsQueryOptions, type ProductFilters, productsQueryOptions } from '../api/get-products.ts';
import { myVotesQueryOptions } from '../api/votes.ts';
import { useLiveTallies } from '../hooks/use-live-tallies.ts';
import {
  CATEGORIES,
  isCategory,
  isSort,
  isStrainType,
  SORT_LABELS,
  SORTS,
  STRAIN_LABELS,
  STRAIN_TYPES,
} from '../ranking.ts';
import { ProductCard } from './product-card.tsx';

function filtersOf(params: URLSearchParams): ProductFilters {
  const sort = params.get('sort');
  const category = params.get('category');
  const strain = params.get('strain');
  const pages = Number.parseInt(params.get('pages') ?? '1', 10);
  return {
    sort: isSort(sort) ? sort : 'top',
    category: isCategory(category) ? category : null,
    brand: params.get('brand') || null,
    strain: isStrainType(strain) ? strain : null,
    q: (params.get('q') ?? '').slice(0, 100),
    pages: Number.isFinite(pages) && pages >= 1 && pages <= 20 ? pages : 1,
  };
}

const SORT_HELP: Record<ProductFilters['sort'], string> = {
  top: 'Ranked by the lower bound of the 95% confidence interval of the Gas share.',
  trending: 'Ranked by net Gas votes, each vote halving in weight every 48 hours.',
  new: 'Newest products first.',
};

/** product §pass-or-gas: the list, its sorts, filters and search, all kept in the URL. */
export function ProductListPage({ signedIn, onSignIn }: { signedIn: boolean; onSignIn: () => void }) {
  useDocumentTitle('Pass or Gas');
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersOf(params), [params]);
  const [search, setSearch] = useState(filters.q);
  const userId = useConfirmedUserId();
  const products = useQuery(productsQueryOptions(filters));
  // The list (24 cards) renders from a deferred copy of the data: an interruptible render, cut into
  // short tasks, rather than one long task when the data arrives (decision 158). Until the copy has
  // caught up, the placeholders stay.
  const shownProducts = useDeferredValue(products.data);
  const brands = useQuery(brandsQueryOptions());
  const ids = useMemo(() => products.data?.products.map((p) => p.id) ?? [], [products.data]);
  const votes = useQuery(myVotesQueryOptions(userId, ids));
  useLiveTallies(null);

  // Changes apply to the address as it is now: react-router hands an updater the parameters of the
  // render that created it, so the search box's delayed write (below) would put back filters that
  // "Clear filters" had just removed.
  function update(changes: Record<string, string | null>) {
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    if (!('pages' in changes)) next.delete('pages');
    setParams(next, { replace: true });
  }

  // The search box writes the URL a moment after typing stops (only when the typed text changes: the
  // URL may change meanwhile, and react-router's updater works from the URL of the moment it runs).
  const currentQ = useRef(filters.q);
  currentQ.current = filters.q;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the typed text changes, by design
  useEffect(() => {
    if (search.trim() === currentQ.current) return;
    const timer = setTimeout(() => update({ q: search.trim() || null }), 300);
    return () => clearTimeout(timer);
  }, [search]);

  const filtered = Boolean(filters.category || filters.brand || filters.strain || filters.q);

  return (
    <PageContainer>
      <PageHeader
        icon={ThumbsUp}
        title="Pass or Gas"
        description="Rate cannabis products with one vote each — Gas if it's fire, Pass if it's not — and see what the community thinks."
        actions={
          <Button asChild variant="outline">
            <Link to="/pass-or-gas/how-rankings-work">
              <Info aria-hidden="true" />
              How rankings work
            </Link>
          </Button>
        }
      />
      <div className="mt-6 flex flex-col gap-4">
        <nav aria-label="Sort products" className="flex flex-wrap items-center gap-2">
          {SORTS.map((sort) => (
            <Button
              key={sort}
              variant={filters.sort === sort ? 'default' : 'outline'}
              size="sm"
              aria-pressed={filters.sort === sort}
              onClick={() => update({ sort: sort === 'top' ? null : sort })}
            >
              {SORT_LABELS[sort]}
            </Button>
          ))}
          <p className="text-muted-foreground text-sm">{SORT_HELP[filters.sort]}</p>
        </nav>
        <form
          aria-label="Filter products"
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
          onSubmit={(event) => {
            event.preventDefault();
            update({ q: search.trim() || null });
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor="pog-search">Search by name</Label>
            <div className="relative">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              />
              <Input
                id="pog-search"
                type="search"
                className="pl-9"
                maxLength={100}
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                placeholder="e.g. Kush"
              />
            </div>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="pog-category">Category</Label>
            <NativeSelect
              id="pog-category"
              value={filters.category ?? ''}
              onChange={(event) => update({ category: event.target.value })}
            >
              <option value="">All categories</option>
              {CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="pog-brand">Brand</Label>
            <NativeSelect
              id="pog-brand"
              value={filters.brand ?? ''}
              onChange={(event) => update({ brand: event.target.value })}
            >
              <option value="">All brands</option>
              {(brands.data ?? []).map((brand) => (
                <option key={brand.id} value={brand.slug}>
                  {brand.name}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="pog-strain">Strain type</Label>
            <NativeSelect
              id="pog-strain"
              value={filters.strain ?? ''}
              onChange={(event) => update({ strain: event.target.value })}
            >
              <option value="">All strain types</option>
              {STRAIN_TYPES.map((strain) => (
                <option key={strain} value={strain}>
                  {STRAIN_LABELS[strain]}
                </option>
              ))}
            </NativeSelect>
          </div>
        </form>
      </div>

      <section aria-label="Products" aria-busy={products.isFetching} className="mt-8">
        {products.isPending || (!products.isError && shownProducts === undefined) ? (
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="products-loading">
            {Array.from({ length: 6 }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
              <Skeleton key={index} className="h-80 rounded-xl" />
            ))}
          </div>
        ) : products.isError ? (
          <EmptyState
            icon={ThumbsUp}
            title="Products could not be loaded"
            actions={<Button onClick={() => void products.refetch()}>Try again</Button>}
          >
            {errorText(products.error)}
          </EmptyState>
        ) : shownProducts === undefined || shownProducts.products.length === 0 ? (
          filtered ? (
            <EmptyState
              icon={Search}
              title="No products match"
              actions={
                <Button
                  variant="outline"
                  onClick={() => {
                    setSearch('');
                    update({ category: null, brand: null, strain: null, q: null });
                  }}
                >
                  Clear filters
                </Button>
              }
            >
              Try another name, or fewer filters.
            </EmptyState>
          ) : (
            <EmptyState icon={ThumbsUp} title="No products to vote on yet">
              Products will appear here once they are added. Members vote once per product, can change their
              vote and discuss each product in the comments.
            </EmptyState>
          )
        ) : (
          <>
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {shownProducts.products.map((product, index) => (
                <li key={product.id} className="flex">
                  <div className="flex w-full flex-col [&>*]:flex-1">
                    <ProductCard
                      product={product}
                      rank={index + 1}
                      vote={votes.data?.[product.id]}
                      signedIn={signedIn}
                      onSignIn={onSignIn}
                    />
                  </div>
                </li>
              ))}
            </ul>
            {shownProducts.hasMore ? (
              <div className="mt-8 flex justify-center">
                <Button
                  variant="outline"
                  disabled={products.isFetching}
                  onClick={() => update({ pages: String(filters.pages + 1) })}
                >
                  {products.isFetching ? 'Loading…' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </section>
    </PageContainer>
  );
}
