import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useAuth, useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import {
  type AccessFacts,
  type AccessStatus,
  accessStatus,
  CHECK_INTERVAL_MS,
  nextCheckDelay,
} from '../access.ts';
import { accessFactsQueryOptions } from '../api/get-access-facts.ts';

export interface ScammerAccess extends AccessStatus {
  userId: string | null;
  facts: AccessFacts | null;
  /** True until the facts of a confirmed session have arrived (or failed). */
  isPending: boolean;
}

/**
 * The signed-in member's Scammer Network access (product §access), one view for the whole page: the header's
 * lock, the Scammer Network button, the profile's trial card and Subscription tab share one cached
 * query, so one check serves them all and a subscription made in one place shows everywhere at once.
 * Starts once supabase-js has confirmed the session, so the first render carries no API client
 * (decision 061).
 *
 * Product §access "Status refreshes every 30 s, or every 1 s when under 5 minutes remain": the facts (trial
 * end, subscription) are fetched when 30 s old; in between the status is re-evaluated against the clock on
 * the spec's cadence, which is exact because the trial end is a fixed time (decision 076). Several
 * readers tick on their own but fetch only through the shared, deduplicated query.
 */
export function useScammerAccess(): ScammerAccess {
  const { isAdmin } = useAuth();
  const userId = useConfirmedUserId();
  const query = useQuery(accessFactsQueryOptions(userId));
  const facts = userId ? (query.data ?? null) : null;
  const [checkedAt, setCheckedAt] = useState(Date.now);
  const { dataUpdatedAt, errorUpdatedAt, refetch } = query;
  // The status as of the last look at the clock, or of the facts' arrival when that came later.
  const now = Math.max(checkedAt, dataUpdatedAt);
  const delay = nextCheckDelay(accessStatus(facts, false, now));

  useEffect(() => {
    if (!userId) return;
    const lastFetch = Math.max(dataUpdatedAt, errorUpdatedAt);
    const timer = setTimeout(
      () => {
        if (Date.now() - lastFetch >= CHECK_INTERVAL_MS) void refetch({ cancelRefetch: false });
        setCheckedAt(Date.now());
      },
      Math.max(0, Math.max(checkedAt, lastFetch) + delay - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [userId, delay, checkedAt, dataUpdatedAt, errorUpdatedAt, refetch]);

  return {
    ...accessStatus(facts, isAdmin, now),
    userId,
    facts,
    isPending: userId === null || query.isPending,
  };
}
