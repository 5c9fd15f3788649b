import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';
import type { Category, Sort, StrainType } from '../ranking.ts';
import type { RankedProduct } from '../types.ts';

export const PAGE_SIZE = 24;

export const PRODUCT_COLUMNS =
  'id, name, brand_id, brand_name, brand_slug, category, strain_type, thc_min, thc_max, cbd_min, cbd_max, image_url, description, is_sample, created_at, gas, pass, counted, pending, held, gas_share, wilson, trend_key, trending_score, last_vote_at';

export interface ProductFilters {
  sort: Sort;
  category: Category | null;
  brand: string | null;
  strain: StrainType | null;
  q: string;
  /** How many pages are shown (Load more adds one). */
  pages: number;
}

export interface ProductPage {
  products: RankedProduct[];
  hasMore: boolean;
}

/** A name search as an ilike pattern: the user's % _ and \ match themselves. */
export function namePattern(q: string): string {
  return `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** product §pass-or-gas: the list in the chosen order with its filters (decision 115's sort keys). */
export async function getProducts(filters: ProductFilters): Promise<ProductPage> {
  const db = await loadDatabase();
  let query = db.from('product_rankings').select(PRODUCT_COLUMNS);
  if (filters.category) query = query.eq('category', filters.category);
  if (filters.brand) query = query.eq('brand_slug', filters.brand);
  if (filters.strain) query = query.eq('strain_type', filters.strain);
  if (filters.q.trim()) query = query.ilike('name', namePattern(filters.q));
  if (filters.sort === 'top') {
    query = query.order('wilson', { ascending: false }).order('counted', { ascending: false });
  } else if (filters.sort === 'trending') {
    query = query.order('trend_key', { ascending: false });
  } else {
    query = query.order('created_at', { ascending: false });
  }
  const size = PAGE_SIZE * filters.pages;
  const { data, error } = await query.order('id').range(0, size);
  if (error) throw error;
  const rows = (data ?? []) as RankedProduct[];
  return { products: rows.slice(0, size), hasMore: rows.length > size };
}

export const productsQueryOptions = (filters: ProductFilters) =>
  queryOptions({
    queryKey: ['pass-or-gas', 'products', filters],
    queryFn: () => getProducts(filters),
    placeholderData: keepPreviousData,
  });
