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

interface Orderable<Q> {
  order(column: string, options?: { ascending?: boolean }): Q;
}

/** The list's order (decision 115's sort keys), each descending, the product's id last. */
const SORT_KEYS: Record<Sort, string[]> = {
  top: ['wilson', 'counted'],
  trending: ['trend_key'],
  new: ['created_at'],
};

function inOrder<Q extends Orderable<Q>>(query: Q, sort: Sort): Q {
  let ordered = query;
  for (const column of SORT_KEYS[sort]) ordered = ordered.order(column, { ascending: false });
  return ordered.order('id', { ascending: true });
}

/** product §pass-or-gas: the list in the chosen order with its filters (decision 115's sort keys). */
export async function getProducts(filters: ProductFilters): Promise<ProductPage> {
  const size = PAGE_SIZE * filters.pages;
  const db = await loadDatabase();
  let rows: RankedProduct[];
  if (filters.q.trim()) {
    // A name search is planned by the database without trusting the name's statistics (decision 256).
    // The function returns the page in the list's order; ordering its rows again costs one page.
    const search = db
      .rpc('search_products', {
        q: filters.q.trim(),
        sort: filters.sort,
        category: filters.category,
        brand_slug: filters.brand,
        strain_type: filters.strain,
        max_rows: size + 1,
      })
      .select(PRODUCT_COLUMNS);
    const { data, error } = await inOrder(search, filters.sort);
    if (error) throw error;
    rows = (data ?? []) as RankedProduct[];
  } else {
    let query = db.from('product_rankings').select(PRODUCT_COLUMNS);
    if (filters.category) query = query.eq('category', filters.category);
    if (filters.brand) query = query.eq('brand_slug', filters.brand);
    if (filters.strain) query = query.eq('strain_type', filters.strain);
    const { data, error } = await inOrder(query, filters.sort).range(0, size);
    if (error) throw error;
    rows = (data ?? []) as RankedProduct[];
  }
  return { products: rows.slice(0, size), hasMore: rows.length > size };
}

export const productsQueryOptions = (filters: ProductFilters) =>
  queryOptions({
    queryKey: ['pass-or-gas', 'products', filters],
    queryFn: () => getProducts(filters),
    placeholderData: keepPreviousData,
  });
