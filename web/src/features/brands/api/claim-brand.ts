import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError, useBrandMutation } from './brand-call.ts';

export interface BrandClaimInput {
  brandId: string;
  userId: string;
  roleTitle: string;
  message: string;
}

/** A member asks to represent a brand; an admin decides (product §brand-directory). */
export async function claimBrand(input: BrandClaimInput): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('brand_claims').insert({
    brand_id: input.brandId,
    user_id: input.userId,
    role_title: input.roleTitle,
    message: input.message,
  });
  if (error) throwBrandError(error);
}

export const useClaimBrand = () => useBrandMutation(claimBrand);
