import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError, useBrandMutation } from '../../api/brand-call.ts';
import type { LicenceInput } from './add-licence.ts';
import { throwIfGone } from './remove-licence.ts';

/** Edits a licence: verify it, set its expiry, make it the primary one; audited by the table's trigger. */
export async function updateLicence({
  id,
  input,
}: {
  id: string;
  input: Partial<LicenceInput>;
}): Promise<void> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('brand_licences').update(input).eq('id', id).select('id');
  if (error) throwBrandError(error);
  throwIfGone(data);
}

export const useUpdateLicence = () => useBrandMutation(updateLicence);
