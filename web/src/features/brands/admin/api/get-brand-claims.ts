import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError } from '../../api/brand-call.ts';
import type { BrandClaim } from '../../types.ts';

export interface AdminClaim extends BrandClaim {
  brand_name: string;
  brand_slug: string;
}

/** The two lists of the claims section. */
export interface AdminClaims {
  /** Waiting for a decision, oldest first. */
  pending: AdminClaim[];
  /** Approved representatives, most recently approved first. */
  approved: AdminClaim[];
}

/** How many claims each list shows; a longer list says so. */
export const CLAIMS_SHOWN = 100;

const COLUMNS = 'id, brand_id, user_id, role_title, message, status, decision_note, decided_at, created_at';

/**
 * Pending claims (the oldest first) and approved representatives (the most recently approved first),
 * each read apart and through its own index, with their brands' names: read together, oldest first,
 * the approved ones of years would have pushed every new claim off the list (decision 260).
 */
export async function getBrandClaims(): Promise<AdminClaims> {
  const supabase = await loadSupabase();
  const [pending, approved] = await Promise.all([
    supabase
      .from('brand_claims')
      .select(COLUMNS)
      .eq('status', 'pending')
      .order('created_at')
      .limit(CLAIMS_SHOWN),
    supabase
      .from('brand_claims')
      .select(COLUMNS)
      .eq('status', 'approved')
      .order('decided_at', { ascending: false, nullsFirst: false })
      .limit(CLAIMS_SHOWN),
  ]);
  if (pending.error) throwBrandError(pending.error);
  if (approved.error) throwBrandError(approved.error);
  const claims = [...(pending.data ?? []), ...(approved.data ?? [])] as BrandClaim[];
  const ids = [...new Set(claims.map((claim) => claim.brand_id))];
  const brands = ids.length
    ? await supabase.from('brands').select('id, name, slug').in('id', ids)
    : { data: [], error: null };
  if (brands.error) throwBrandError(brands.error);
  const byId = new Map((brands.data ?? []).map((b) => [b.id as string, b as { name: string; slug: string }]));
  const named = (claim: BrandClaim): AdminClaim => ({
    ...claim,
    brand_name: byId.get(claim.brand_id)?.name ?? 'Unknown brand',
    brand_slug: byId.get(claim.brand_id)?.slug ?? '',
  });
  return {
    pending: ((pending.data ?? []) as BrandClaim[]).map(named),
    approved: ((approved.data ?? []) as BrandClaim[]).map(named),
  };
}

export const adminClaimsQueryOptions = () =>
  queryOptions({ queryKey: ['brands', 'claims'], queryFn: getBrandClaims });
