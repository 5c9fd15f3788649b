import { useQuery } from '@tanstack/react-query';
import { Info, ThumbsUp } from 'lucide-react';
import { Link } from 'react-router';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { CategoryFilter, FilterForm, SearchFilter, SelectFilter } from '#web/components/ui/filter-form.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { defineUrlFilters, pageNumber, useUrlFilters } from '#web/lib/use-url-filters.ts';
import { brandsQueryOptions } from '../api/get-brands.ts';
import type { ProductFilters } from '../api/get-products.ts';
import { useLiveTallies } from '../hooks/use-live-tallies.ts';
import {
  isCategory,
  isSort,
  isStrainType,
  SORT_LABELS,
  SORTS,
  STRAIN_LABELS,
  STRAIN_TYPES,
} from '../ranking.ts';
import { ProductListResults } from './product-list-results.tsx';

/** The list's filters in the address: ?sort=&category=&brand=&strain=&q=&pages= (defaults left out). */
const PRODUCT_FILTERS = defineUrlFilters<ProductFilters>({
  params: { sort: 'sort', category: 'category', brand: 'brand', strain: 'strain', q: 'q', pages: 'pages' },
  read: (params) => {
    const sort = params.get('sort');
    const category = params.get('category');
    const strain = params.get('strain');
    return {
      sort: isSort(sort) ? sort : 'top',
      category: isCategory(category) ? category : null,
      brand: params.get('brand') || null,
      strain: isStrainType(strain) ? strain : null,
      q: (params.get('q') ?? '').slice(0, 100),
      pages: pageNumber(params.get('pages'), 20),
    };
  },
  page: 'pages',
  search: 'q',
});

const STRAIN_OPTIONS = STRAIN_TYPES.map((strain) => [strain, STRAIN_LABELS[strain]] as const);

const SORT_HELP: Record<ProductFilters['sort'], string> = {
  top: 'Ranked by the lower bound of the 95% confidence interval of the Gas share.',
  trending: 'Ranked by net Gas votes, each vote halving in weight every 48 hours.',
  new: 'Newest products first.',
};

/** product §pass-or-gas: the list, its sorts, filters and search, all kept in the URL. */
export function ProductListPage({ signedIn, onSignIn }: { signedIn: boolean; onSignIn: () => void }) {
  useDocumentTitle('Pass or Gas');
  const { filters, set, clear, search } = useUrlFilters(PRODUCT_FILTERS);
  const brands = useQuery(brandsQueryOptions());
  useLiveTallies(null);

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
              onClick={() => set({ sort })}
            >
              {SORT_LABELS[sort]}
            </Button>
          ))}
          <p className="text-muted-foreground text-sm">{SORT_HELP[filters.sort]}</p>
        </nav>
        <FilterForm
          label="Filter products"
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
          onSubmit={search.submit}
        >
          <SearchFilter
            id="pog-search"
            label="Search by name"
            box={search}
            maxLength={100}
            placeholder="e.g. Kush"
          />
          <CategoryFilter
            id="pog-category"
            value={filters.category}
            onChange={(category) => set({ category })}
          />
          <SelectFilter
            id="pog-brand"
            label="Brand"
            value={filters.brand}
            onChange={(brand) => set({ brand })}
            all="All brands"
            options={(brands.data ?? []).map((brand) => [brand.slug, brand.name] as const)}
          />
          <SelectFilter
            id="pog-strain"
            label="Strain type"
            value={filters.strain}
            onChange={(strain) => set({ strain })}
            all="All strain types"
            options={STRAIN_OPTIONS}
          />
        </FilterForm>
      </div>
      <ProductListResults
        filters={filters}
        signedIn={signedIn}
        onSignIn={onSignIn}
        onMore={() => set({ pages: filters.pages + 1 })}
        onClear={() => clear(['category', 'brand', 'strain', 'q'])}
      />
    </PageContainer>
  );
}
