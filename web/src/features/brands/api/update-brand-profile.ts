import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError, useBrandMutation } from './brand-call.ts';

export interface ProfileInput {
  description: string;
  logo_url: string;
  website: string;
  social_links: string[];
}

/** A representative's (or admin's) edit of description, logo and links (rpc brands_update_profile). */
export async function updateBrandProfile({ brandId, ...input }: ProfileInput & { brandId: string }) {
  const supabase = await loadSupabase();
  const { error } = await supabase.rpc('brands_update_profile', {
    p_brand_id: brandId,
    description: input.description,
    logo_url: input.logo_url,
    website: input.website,
    social_links: input.social_links,
  });
  if (error) throwBrandError(error);
}

export const useUpdateBrandProfile = () => useBrandMutation(updateBrandProfile);
