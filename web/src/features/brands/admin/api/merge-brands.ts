import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError, useBrandMutation } from '../../api/brand-call.ts';

/**
 * One brand into another (rpc brands_merge): products, linked reports and claims move to the one kept,
 * which gains the licences it lacks; the other is archived and its address forwards.
 */
export async function mergeBrands({ from, into }: { from: string; into: string }): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.rpc('brands_merge', { p_from: from, p_into: into });
  if (error) throwBrandError(error);
}

export const useMergeBrands = () => useBrandMutation(mergeBrands);
