import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError, useBrandMutation } from '../../api/brand-call.ts';
import type { BrandLicence } from '../../types.ts';

export type LicenceInput = Omit<BrandLicence, 'id' | 'shown_verification'>;

/** Another licence of a brand (decision 151); audited by the table's trigger. */
export async function addLicence({
  brandId,
  input,
}: {
  brandId: string;
  input: LicenceInput;
}): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('brand_licences').insert({ brand_id: brandId, ...input });
  if (error) throwBrandError(error);
}

export const useAddLicence = () => useBrandMutation(addLicence);
