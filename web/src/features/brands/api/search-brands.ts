import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';
import type { BrandListItem, BrandSort } from '../types.ts';
import { throwBrandError } from './brand-call.ts';

export const PAGE_SIZE = 24;

export interface BrandFilters {
  q: string;
  state: string | null;
  category: string | null;
  verifiedOnly: boolean;
  sort: BrandSort | null;
  page: number;
}

export interface BrandListPage {
  brands: BrandListItem[];
  total: number;
}

/** product §brand-directory: one page of the directory with its filters and sort. */
export async function searchBrands(filters: BrandFilters): Promise<BrandListPage> {
  const db = await loadDatabase();
  const { data, error } = await db.rpc('search_brands', {
    q: filters.q.trim() || null,
    state: filters.state,
    category: filters.category,
    verified_only: filters.verifiedOnly,
    sort: filters.sort,
    page_size: PAGE_SIZE,
    page_offset: (filters.page - 1) * PAGE_SIZE,
  });
  if (error) throwBrandError(error);
  const rows = (data ?? []) as BrandListItem[];
  return { brands: rows, total: rows[0]?.total ?? 0 };
}

export const brandsSearchQueryOptions = (filters: BrandFilters) =>
  queryOptions({
    queryKey: ['brands', 'search', filters],
    queryFn: () => searchBrands(filters),
    placeholderData: keepPreviousData,
  });
