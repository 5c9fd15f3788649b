import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { AccessFacts, Subscription } from '../access.ts';

export interface SubscriptionRow {
  subscription_type: string;
  status: 'active' | 'cancelled';
  expires_at: string;
  created_at: string;
  provider: 'demo' | 'stripe' | 'admin';
  payment_failed_at: string | null;
}

export function parseSubscription(row: SubscriptionRow | null): Subscription | null {
  if (!row) return null;
  return {
    subscriptionType: row.subscription_type,
    status: row.status,
    expiresAt: Date.parse(row.expires_at),
    createdAt: Date.parse(row.created_at),
    provider: row.provider,
    paymentFailedAt: row.payment_failed_at ? Date.parse(row.payment_failed_at) : null,
  };
}

/**
 * Product §table-calls: the member's trial end (profiles) and their subscription (one row per member,
 * decision 033). Filtered by user id because admins may read everyone's rows.
 */
export async function getAccessFacts(userId: string): Promise<AccessFacts> {
  const supabase = await loadSupabase();
  const [profile, subscription] = await Promise.all([
    supabase.from('profiles').select('trial_ends_at').eq('user_id', userId).maybeSingle(),
    supabase
      .from('scammer_subscriptions')
      .select('subscription_type, status, expires_at, created_at, provider, payment_failed_at')
      .eq('user_id', userId)
      .order('created_at', { ascending: false })
      .limit(1)
      .maybeSingle(),
  ]);
  if (profile.error) throw profile.error;
  if (subscription.error) throw subscription.error;
  const trialEndsAt = profile.data?.trial_ends_at;
  return {
    trialEndsAt: typeof trialEndsAt === 'string' ? Date.parse(trialEndsAt) : null,
    subscription: parseSubscription(subscription.data as SubscriptionRow | null),
  };
}

/** The member's access facts; the whole area is invalidated by `['subscription']` after a write. */
export const accessFactsQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['subscription', 'access-facts', { userId }],
    queryFn: userId ? () => getAccessFacts(userId) : skipToken,
  });
