import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { MyVote, VoteType } from '../types.ts';
import { VOTE_COLUMNS } from './get-my-votes.ts';

/**
 * Casts, changes or takes back the member's vote: pressing the button of the current vote takes it
 * back; the other button changes it; with no vote, it casts one. The database decides how it counts.
 */
export async function castVote(
  current: MyVote | undefined,
  productId: string,
  voteType: VoteType,
): Promise<MyVote | null> {
  const supabase = await loadSupabase();
  if (current && current.vote_type === voteType) {
    const { error } = await supabase.from('product_votes').delete().eq('id', current.id);
    if (error) throw error;
    return null;
  }
  if (current) {
    const { data, error } = await supabase
      .from('product_votes')
      .update({ vote_type: voteType })
      .eq('id', current.id)
      .select(VOTE_COLUMNS)
      .single();
    if (error) throw error;
    return data as MyVote;
  }
  const { data, error } = await supabase
    .from('product_votes')
    .insert({ product_id: productId, vote_type: voteType })
    .select(VOTE_COLUMNS)
    .single();
  if (error) throw error;
  return data as MyVote;
}

export function useCastVote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { current: MyVote | undefined; productId: string; voteType: VoteType }) =>
      castVote(input.current, input.productId, input.voteType),
    onSuccess: (vote, input) => {
      queryClient.setQueriesData<Record<string, MyVote>>({ queryKey: ['pass-or-gas', 'my-votes'] }, (old) => {
        if (!old || !(input.productId in old || vote)) return old;
        const next = { ...old };
        if (vote) next[input.productId] = vote;
        else delete next[input.productId];
        return next;
      });
      void queryClient.invalidateQueries({ queryKey: ['pass-or-gas', 'my-votes'] });
      void queryClient.invalidateQueries({ queryKey: ['pass-or-gas', 'product', { id: input.productId }] });
      void queryClient.invalidateQueries({ queryKey: ['profile'] });
    },
  });
}
