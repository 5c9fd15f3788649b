import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError } from '../../api/brand-call.ts';
import type { Brand } from '../../types.ts';

const COLUMNS =
  'id, name, slug, description, logo_url, website, social_links, states, city, categories, licence_number, licence_state, licence_type, licence_expires_on, verification, shown_verification, verified_at, verification_note, archived_at, merged_into, is_sample, created_at, updated_at';

/** Brands for the admin list: live first, archived when asked; a name filter. */
export async function getAdminBrands(q: string, archived: boolean): Promise<Brand[]> {
  const supabase = await loadSupabase();
  let query = supabase.from('brands').select(COLUMNS);
  query = archived ? query.not('archived_at', 'is', null) : query.is('archived_at', null);
  if (q.trim()) query = query.ilike('name', `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const { data, error } = await query.order('name').limit(100);
  if (error) throwBrandError(error);
  return (data ?? []) as Brand[];
}

export const adminBrandsQueryOptions = (q: string, archived: boolean) =>
  queryOptions({ queryKey: ['brands', 'admin', q, archived], queryFn: () => getAdminBrands(q, archived) });
