import { useMutation } from '@tanstack/react-query';
import { marketRpc } from './market-rpc.ts';

export interface VerifyResult {
  index: string;
  checked: number;
  ok: boolean;
  mismatches: { date: string; stored: number | null; computed: number | null }[];
}

/** Recomputes an index from its inputs and compares every stored value with the result. */
export function verifyIndex(slug: string): Promise<VerifyResult> {
  return marketRpc((supabase) => supabase.rpc('market_verify', { p_index: slug }));
}

export function useVerifyIndex() {
  return useMutation({ mutationFn: verifyIndex });
}
