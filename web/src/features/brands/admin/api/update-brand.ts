import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError, useBrandMutation } from '../../api/brand-call.ts';
import type { BrandInput } from './create-brand.ts';

export interface BrandUpdate {
  id: string;
  /** Only the columns that change (the licence panel may have changed the primary licence meanwhile). */
  input: Partial<BrandInput> & { archived_at?: string | null };
}

/** An admin's edit of a brand, or its archiving (archived_at set) and restoring (null). */
export async function updateBrand({ id, input }: BrandUpdate): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('brands').update(input).eq('id', id);
  if (error) throwBrandError(error);
}

export const useUpdateBrand = () => useBrandMutation(updateBrand);
