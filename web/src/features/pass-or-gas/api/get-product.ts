import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';
import type { RankedProduct } from '../types.ts';
import { PRODUCT_COLUMNS } from './get-products.ts';

export interface VoteDay {
  day: string;
  gas: number;
  pass: number;
}

export interface ProductDetail {
  product: RankedProduct | null;
  days: VoteDay[];
  /** Place in Top and Trending (1 = first): products strictly ahead, plus one. */
  topPosition: number;
  trendingPosition: number;
}

/** product §pass-or-gas: one product, its votes by day and its places in the lists. */
export async function getProduct(id: string): Promise<ProductDetail> {
  const db = await loadDatabase();
  const { data, error } = await db
    .from('product_rankings')
    .select(PRODUCT_COLUMNS)
    .eq('id', id)
    .maybeSingle();
  if (error) throw error;
  const product = data as RankedProduct | null;
  if (!product) return { product: null, days: [], topPosition: 0, trendingPosition: 0 };
  // The lists' last tie-break is the id (text): quoted, so any character is read as a value.
  const quotedId = `"${product.id.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  const [days, top, trending] = await Promise.all([
    db.from('product_vote_days').select('day, gas, pass').eq('product_id', id).order('day').limit(365),
    db
      .from('product_rankings')
      .select('id', { count: 'exact', head: true })
      .or(
        `wilson.gt.${product.wilson},and(wilson.eq.${product.wilson},counted.gt.${product.counted}),and(wilson.eq.${product.wilson},counted.eq.${product.counted},id.lt.${quotedId})`,
      ),
    db
      .from('product_rankings')
      .select('id', { count: 'exact', head: true })
      .or(`trend_key.gt.${product.trend_key},and(trend_key.eq.${product.trend_key},id.lt.${quotedId})`),
  ]);
  if (days.error) throw days.error;
  if (top.error) throw top.error;
  if (trending.error) throw trending.error;
  return {
    product,
    days: (days.data ?? []) as VoteDay[],
    topPosition: (top.count ?? 0) + 1,
    trendingPosition: (trending.count ?? 0) + 1,
  };
}

export const productQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['pass-or-gas', 'product', { id }], queryFn: () => getProduct(id) });
