import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { AdminProduct } from '../admin-product.ts';

const COLUMNS =
  'id, name, brand_id, category, strain_type, thc_min, thc_max, cbd_min, cbd_max, image_url, description, archived_at, is_sample, created_at';

/** How many products the list shows; a longer list says so, and the name search finds the others. */
export const ADMIN_PRODUCTS_SHOWN = 200;

/**
 * /admin/products: every product, archived ones included, newest first, or those whose name holds `q`
 * (any case; decision 262).
 */
export async function getAdminProducts(q: string): Promise<AdminProduct[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .rpc('admin_find_products', { q: q.trim() || null, max_rows: ADMIN_PRODUCTS_SHOWN })
    .select(COLUMNS);
  if (error) throw error;
  return (data ?? []) as unknown as AdminProduct[];
}

export const adminProductsQueryOptions = (q = '') =>
  queryOptions({ queryKey: ['pass-or-gas', 'admin-products', { q }], queryFn: () => getAdminProducts(q) });
