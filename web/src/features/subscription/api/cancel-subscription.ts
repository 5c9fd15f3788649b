import { loadSupabase } from '../../../lib/supabase.ts';

/** Spec §7: cancelling sets the status to cancelled; the expiry stays (access ends with the status). */
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
