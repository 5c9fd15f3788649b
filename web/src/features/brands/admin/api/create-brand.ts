import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError, useBrandMutation } from '../../api/brand-call.ts';
import type { Brand } from '../../types.ts';

/** What the admin's brand form writes: everything but the ids, stamps and what other actions set. */
export type BrandInput = Omit<
  Brand,
  'id' | 'shown_verification' | 'archived_at' | 'merged_into' | 'is_sample' | 'created_at' | 'updated_at'
>;

/** A new brand in the directory (admins only: row-level security). */
export async function createBrand(input: BrandInput): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('brands').insert(input);
  if (error) throwBrandError(error);
}

export const useCreateBrand = () => useBrandMutation(createBrand);
