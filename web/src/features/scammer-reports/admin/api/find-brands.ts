import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

export interface BrandOption {
  id: string;
  name: string;
  slug: string;
}

/** Brands by name, for linking a report (public.brands). */
export async function findBrands(text: string): Promise<BrandOption[]> {
  const supabase = await loadSupabase();
  const pattern = `%${text.trim().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  const { data, error } = await supabase
    .from('brands')
    .select('id, name, slug')
    .ilike('name', pattern)
    .order('name')
    .limit(8);
  if (error) throw error;
  return (data ?? []) as BrandOption[];
}

/** Asked once two characters are typed. */
export const brandSearchQueryOptions = (text: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'admin', 'brand-search', text.trim()],
    queryFn: () => findBrands(text),
    enabled: text.trim().length >= 2,
  });
