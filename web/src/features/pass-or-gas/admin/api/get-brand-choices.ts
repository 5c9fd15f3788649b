import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

export interface BrandChoice {
  id: string;
  name: string;
}

/**
 * Every brand an admin can put a product under, by name: the public brand list (brandsQueryOptions)
 * names only brands that already have products, so a new brand could never get its first one.
 */
export async function getBrandChoices(): Promise<BrandChoice[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('brands').select('id, name').order('name').limit(2000);
  if (error) throw error;
  return (data ?? []) as BrandChoice[];
}

export const brandChoicesQueryOptions = () =>
  queryOptions({ queryKey: ['pass-or-gas', 'admin-brand-choices', {}], queryFn: getBrandChoices });
