import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';
import type { Brand } from '../types.ts';

/**
 * The brand filter's choices: brands with at least one live product (their tally's product count, kept
 * by the products' triggers), so no choice leads to an empty list (issue 34).
 */
export async function getBrands(): Promise<Brand[]> {
  const db = await loadDatabase();
  const { data, error } = await db
    .from('brands')
    .select('id, name, slug, brand_tallies!inner(products)')
    .gt('brand_tallies.products', 0)
    .order('name')
    .limit(500);
  if (error) throw error;
  return ((data ?? []) as (Brand & { brand_tallies: unknown })[]).map(({ id, name, slug }) => ({
    id,
    name,
    slug,
  }));
}

export const brandsQueryOptions = () =>
  queryOptions({ queryKey: ['pass-or-gas', 'brands', {}], queryFn: getBrands, staleTime: 60_000 });
