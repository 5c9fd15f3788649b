import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError } from '../../api/brand-call.ts';
import type { BrandClaim } from '../../types.ts';

export interface AdminClaim extends BrandClaim {
  brand_name: string;
  brand_slug: string;
}

/** Pending and approved claims, with their brand's name. */
export async function getBrandClaims(): Promise<AdminClaim[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('brand_claims')
    .select('id, brand_id, user_id, role_title, message, status, decision_note, created_at')
    .in('status', ['pending', 'approved'])
    .order('created_at')
    .limit(200);
  if (error) throwBrandError(error);
  const claims = (data ?? []) as BrandClaim[];
  const ids = [...new Set(claims.map((claim) => claim.brand_id))];
  const brands = ids.length
    ? await supabase.from('brands').select('id, name, slug').in('id', ids)
    : { data: [], error: null };
  if (brands.error) throwBrandError(brands.error);
  const byId = new Map((brands.data ?? []).map((b) => [b.id as string, b as { name: string; slug: string }]));
  return claims.map((claim) => ({
    ...claim,
    brand_name: byId.get(claim.brand_id)?.name ?? 'Unknown brand',
    brand_slug: byId.get(claim.brand_id)?.slug ?? '',
  }));
}

export const adminClaimsQueryOptions = () =>
  queryOptions({ queryKey: ['brands', 'claims'], queryFn: getBrandClaims });
