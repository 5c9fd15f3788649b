import { type AccessFacts, accessStatus, CHECK_INTERVAL_MS, nextCheckDelay } from './access.ts';
import { getAccessFacts } from './api/get-access-facts.ts';

/**
 * One view of the member's Scammer Network access for the whole page: the header's lock, the Scammer
 * Network button, the profile's trial card and Subscription tab all read it, so one check serves them
 * all and a subscription made in one place shows everywhere at once.
 *
 * Spec §4 "Status refreshes every 30 s, or every 1 s when under 5 minutes remain": the facts (trial
 * end, subscription) are fetched every 30 s; in between the status is re-evaluated against the clock
 * on the spec's cadence, which is exact because the trial end is a fixed time (decision 076).
 */
export interface AccessSnapshot {
  userId: string | null;
  facts: AccessFacts | null;
  /** When the status was last evaluated (epoch ms). */
  checkedAt: number;
}

let snapshot: AccessSnapshot = { userId: null, facts: null, checkedAt: Date.now() };
const listeners = new Set<() => void>();
let holders = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let lastFetch = 0;
let generation = 0;

function emit(patch: Partial<AccessSnapshot>): void {
  snapshot = { ...snapshot, ...patch };
  for (const listener of listeners) listener();
}

export function getAccessSnapshot(): AccessSnapshot {
  return snapshot;
}

export function subscribeAccess(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function fetchFacts(userId: string): Promise<void> {
  const current = generation;
  lastFetch = Date.now();
  try {
    const facts = await getAccessFacts(userId);
    if (current === generation) emit({ facts, checkedAt: Date.now() });
  } catch {
    // Keep what is known; the next check tries again.
  }
}

function schedule(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const { userId } = snapshot;
  if (!userId || holders === 0) return;
  const delay = nextCheckDelay(accessStatus(snapshot.facts, false, Date.now()));
  timer = setTimeout(async () => {
    timer = null;
    if (snapshot.userId !== userId) return;
    if (Date.now() - lastFetch >= CHECK_INTERVAL_MS) await fetchFacts(userId);
    else emit({ checkedAt: Date.now() });
    if (snapshot.userId === userId) schedule();
  }, delay);
}

/** Follows the member's access while held (one hold per mounted reader); null stops following. */
export function holdAccess(userId: string | null): () => void {
  holders += 1;
  if (userId !== snapshot.userId) {
    generation += 1;
    emit({ userId, facts: null, checkedAt: Date.now() });
    if (userId) void fetchFacts(userId).then(schedule);
  } else if (!timer) {
    schedule();
  }
  return () => {
    holders -= 1;
    if (holders === 0 && timer) {
      clearTimeout(timer);
      timer = null;
    }
  };
}

/**
 * The member's facts, fetched first when they are not known yet: a click on the Scammer Network
 * button must not treat "not loaded yet" as "no access" (that would subscribe a member on trial).
 */
export async function accessFactsOf(userId: string): Promise<AccessFacts> {
  if (snapshot.userId === userId && snapshot.facts) return snapshot.facts;
  const facts = await getAccessFacts(userId);
  if (snapshot.userId === userId) emit({ facts, checkedAt: Date.now() });
  return facts;
}

/** Fetches the facts now (after subscribing or cancelling). */
export async function refreshAccess(): Promise<void> {
  const { userId } = snapshot;
  if (!userId) return;
  await fetchFacts(userId);
  schedule();
}
