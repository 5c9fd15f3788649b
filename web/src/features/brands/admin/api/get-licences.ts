import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError } from '../../api/brand-call.ts';
import type { BrandLicence } from '../../types.ts';

const LICENCE_COLUMNS =
  'id, number, state, type, expires_on, verification, shown_verification, verified_at, verification_note, is_primary';

/** A brand's licences, the primary first (admins edit them; everyone may read them). */
export async function getLicences(brandId: string): Promise<BrandLicence[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('brand_licences')
    .select(LICENCE_COLUMNS)
    .eq('brand_id', brandId)
    .order('is_primary', { ascending: false })
    .order('created_at')
    .order('id');
  if (error) throwBrandError(error);
  return (data ?? []) as BrandLicence[];
}

export const licencesQueryOptions = (brandId: string) =>
  queryOptions({ queryKey: ['brands', 'licences', brandId], queryFn: () => getLicences(brandId) });
