import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError } from '../../api/brand-call.ts';
import type { Brand } from '../../types.ts';

const COLUMNS =
  'id, name, slug, description, logo_url, website, social_links, states, city, categories, licence_number, licence_state, licence_type, licence_expires_on, verification, shown_verification, verified_at, verification_note, archived_at, merged_into, is_sample, created_at, updated_at';

/** How many brands one list shows; a longer list says so, and the name search finds the others. */
export const ADMIN_BRANDS_SHOWN = 100;

/**
 * Brands for the admin list and the merge dialog: live ones, or archived ones when asked, by name in any
 * case, those whose name holds `q` (decision 260).
 */
export async function getAdminBrands(q: string, archived: boolean): Promise<Brand[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .rpc('admin_find_brands', { q: q.trim() || null, archived, max_rows: ADMIN_BRANDS_SHOWN })
    .select(COLUMNS);
  if (error) throwBrandError(error);
  return (data ?? []) as unknown as Brand[];
}

export const adminBrandsQueryOptions = (q: string, archived: boolean) =>
  queryOptions({ queryKey: ['brands', 'admin', q, archived], queryFn: () => getAdminBrands(q, archived) });
