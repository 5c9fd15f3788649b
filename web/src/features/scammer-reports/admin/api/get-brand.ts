import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { BrandOption } from './find-brands.ts';

/** The brand a report is linked to (public.brands), or null. */
export async function getBrand(id: string): Promise<BrandOption | null> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('brands').select('id, name, slug').eq('id', id).maybeSingle();
  if (error) throw error;
  return data as BrandOption | null;
}

/** The linked brand; null without asking when the report has none. */
export const linkedBrandQueryOptions = (brandId: string | null) =>
  queryOptions({
    queryKey: ['scammer-reports', 'admin', 'brand', brandId],
    queryFn: () => (brandId ? getBrand(brandId) : null),
  });
