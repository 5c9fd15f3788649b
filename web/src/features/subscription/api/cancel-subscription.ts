import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/**
 * Product §table-calls: cancelling sets the status to cancelled; the expiry stays (access ends with the
 * status).
 */
export async function cancelSubscription(userId: string): Promise<void> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_subscriptions')
    .update({ status: 'cancelled' })
    .eq('user_id', userId)
    .select('user_id');
  if (error) throw error;
  if (!data || data.length === 0) throw new Error('No subscription to cancel');
}

/** Cancels the subscription, then refreshes what the page knows of the member's access. */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['subscription'] }),
  });
}
