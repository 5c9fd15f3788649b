import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError, useBrandMutation } from '../../api/brand-call.ts';

export interface ClaimDecision {
  id: string;
  status: 'approved' | 'rejected' | 'revoked';
  /** A note to the member (optional). */
  note: string | null;
}

/** An admin approves or rejects a claim, or revokes an approved representative. */
export async function decideBrandClaim({ id, status, note }: ClaimDecision): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('brand_claims').update({ status, decision_note: note }).eq('id', id);
  if (error) throwBrandError(error);
}

export const useDecideBrandClaim = () => useBrandMutation(decideBrandClaim);
