import { useEffect, useSyncExternalStore } from 'react';
import { useAuth } from '../../auth/hooks/use-auth.ts';
import { type AccessStatus, accessStatus } from '../access.ts';
import { type AccessSnapshot, getAccessSnapshot, holdAccess, subscribeAccess } from '../access-store.ts';

export interface ScammerAccess extends AccessStatus {
  userId: string | null;
  facts: AccessSnapshot['facts'];
  /** Whether the facts for this member have arrived (admins know without them). */
  known: boolean;
}

/**
 * The signed-in member's access (spec §4). Starts once supabase-js has confirmed the session, as the
 * notifications bell does, so the first render carries no API client (decision 061).
 */
export function useScammerAccess(): ScammerAccess {
  const auth = useAuth();
  const userId = auth.confirmed ? (auth.user?.id ?? null) : null;
  const snapshot = useSyncExternalStore(subscribeAccess, getAccessSnapshot, getAccessSnapshot);

  useEffect(() => holdAccess(userId), [userId]);

  const facts = snapshot.userId === userId ? snapshot.facts : null;
  const status = accessStatus(facts, auth.isAdmin, snapshot.checkedAt);
  return { ...status, userId, facts, known: facts !== null || auth.isAdmin };
}
