import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { AdminProduct } from '../admin-product.ts';

const COLUMNS =
  'id, name, brand_id, category, strain_type, thc_min, thc_max, cbd_min, cbd_max, image_url, description, archived_at, is_sample, created_at';

/** /admin/products: every product, archived ones included, newest first. */
export async function getAdminProducts(): Promise<AdminProduct[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('products')
    .select(COLUMNS)
    .order('created_at', { ascending: false })
    .limit(200);
  if (error) throw error;
  return (data ?? []) as AdminProduct[];
}

export const adminProductsQueryOptions = () =>
  queryOptions({ queryKey: ['pass-or-gas', 'admin-products', {}], queryFn: getAdminProducts });
