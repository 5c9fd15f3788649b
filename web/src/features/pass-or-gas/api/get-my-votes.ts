import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { MyVote } from '../types.ts';

export const VOTE_COLUMNS = 'id, product_id, vote_type, status, counts_from';

/** The member's votes on these products (read own only: RLS). */
export async function getMyVotes(
  userId: string,
  productIds: readonly string[],
): Promise<Record<string, MyVote>> {
  if (productIds.length === 0) return {};
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('product_votes')
    .select(VOTE_COLUMNS)
    .eq('user_id', userId)
    .in('product_id', [...productIds]);
  if (error) throw error;
  return Object.fromEntries(((data ?? []) as MyVote[]).map((vote) => [vote.product_id, vote]));
}

export const myVotesQueryOptions = (userId: string | null, productIds: readonly string[]) =>
  queryOptions({
    queryKey: ['pass-or-gas', 'my-votes', { userId, productIds }],
    queryFn: userId ? () => getMyVotes(userId, productIds) : skipToken,
  });
