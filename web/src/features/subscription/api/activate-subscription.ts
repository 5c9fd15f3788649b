import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { oneMonthAhead } from '../access.ts';

/**
 * Product §access, §table-calls: subscribing writes the row directly (no payment is taken): monthly, active,
 * expiring one month ahead. The database refuses any longer expiry (decision 033).
 */
export async function activateSubscription(userId: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('scammer_subscriptions').upsert({
    user_id: userId,
    subscription_type: 'monthly',
    status: 'active',
    expires_at: oneMonthAhead(new Date()).toISOString(),
  });
  if (error) throw error;
}

/** Subscribes the member, then refreshes what the page knows of their access (everywhere at once). */
export function useActivateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['subscription'] }),
  });
}
