import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

export type WatchKind = 'name' | 'business' | 'phone' | 'email' | 'domain';

export interface Watch {
  id: string;
  kind: WatchKind;
  value: string;
  created_at: string;
}

export const WATCH_KINDS: readonly [WatchKind, string][] = [
  ['name', 'Name'],
  ['business', 'Business'],
  ['phone', 'Phone'],
  ['email', 'Email'],
  ['domain', 'Website'],
];

/** The member's watches (decision 125), newest first. */
export async function getWatches(): Promise<Watch[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_watches')
    .select('id, kind, value, created_at')
    .order('created_at', { ascending: false })
    .limit(50);
  if (error) throw error;
  return (data ?? []) as Watch[];
}

/** Invalidated when a watch is added or removed (`['scammer-reports', 'watches']`). */
export const watchesQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['scammer-reports', 'watches', { userId }],
    queryFn: getWatches,
    enabled: userId !== null,
  });
