import { Store } from 'lucide-react';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import {
  CategoryFilter,
  CheckFilter,
  FilterForm,
  SearchFilter,
  SelectFilter,
} from '#web/components/ui/filter-form.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { defineUrlFilters, oneOf, pageNumber, useUrlFilters } from '#web/lib/use-url-filters.ts';
import type { BrandFilters } from '../api/search-brands.ts';
import { BRAND_CATEGORIES, BRAND_SORT_LABELS, BRAND_SORTS, type BrandSort, US_STATES } from '../types.ts';
import { BrandDirectoryResults } from './brand-directory-results.tsx';

const STATE_CODES = US_STATES.map(([code]) => code);

/** The directory's filters in the address: ?q=&state=&category=&verified=1&sort=&page= (defaults left out). */
const BRAND_FILTERS = defineUrlFilters<BrandFilters>({
  params: {
    q: 'q',
    state: 'state',
    category: 'category',
    verifiedOnly: 'verified',
    sort: 'sort',
    page: 'page',
  },
  read: (params) => ({
    q: (params.get('q') ?? '').slice(0, 100),
    state: oneOf(params.get('state'), STATE_CODES),
    category: oneOf(params.get('category'), BRAND_CATEGORIES),
    verifiedOnly: params.get('verified') === '1',
    sort: oneOf(params.get('sort'), BRAND_SORTS),
    page: pageNumber(params.get('page'), 4000),
  }),
  page: 'page',
  // Back returns to the previous page of the directory.
  pushPages: true,
  search: 'q',
});

/** product §brand-directory: search (typo-tolerant), filters, sorts and pages, all kept in the URL. */
export function BrandDirectoryPage() {
  useDocumentTitle('Brand Directory');
  const { filters, set, clear, search } = useUrlFilters(BRAND_FILTERS);
  const sort: BrandSort = filters.sort ?? (filters.q ? 'relevance' : 'name');
  const sorts: BrandSort[] = filters.q ? ['relevance', ...BRAND_SORTS] : [...BRAND_SORTS];

  return (
    <PageContainer>
      <PageHeader
        icon={Store}
        title="Brand Directory"
        description="Find cannabis brands with their licence details, locations, products and community scores."
      />
      <FilterForm
        label="Search and filter brands"
        className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr]"
        onSubmit={search.submit}
      >
        <SearchFilter
          id="brand-search"
          label="Search by name"
          box={search}
          maxLength={100}
          placeholder="e.g. Green Thumb — typos are fine"
        />
        <SelectFilter
          id="brand-state"
          label="State"
          value={filters.state}
          onChange={(state) => set({ state })}
          all="All states"
          options={US_STATES}
        />
        <CategoryFilter
          id="brand-category"
          value={filters.category}
          onChange={(category) => set({ category })}
        />
        <SelectFilter
          id="brand-sort"
          label="Sort by"
          value={sort}
          onChange={(value) => set({ sort: value })}
          options={sorts.map((value) => [value, BRAND_SORT_LABELS[value]] as const)}
        />
        <CheckFilter
          label="Verified licences only (checked in the last 12 months)"
          className="sm:col-span-2 lg:col-span-4"
          checked={filters.verifiedOnly}
          onChange={(verifiedOnly) => set({ verifiedOnly })}
        />
      </FilterForm>
      <BrandDirectoryResults filters={filters} onPage={(page) => set({ page })} onClear={() => clear()} />
    </PageContainer>
  );
}
