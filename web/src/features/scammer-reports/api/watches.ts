import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { UserFacingError } from '#web/lib/error-text.ts';
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

export const watchesQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['scammer-reports', 'watches', { userId }],
    queryFn: getWatches,
    enabled: userId !== null,
  });

export function useAddWatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (watch: { kind: WatchKind; value: string }) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.from('scammer_watches').insert(watch);
      // The database's refusals are written for the member ("Enter a phone number with its area code …").
      if (error?.code === '23514') throw new UserFacingError(error.message);
      if (error?.code === '23505') throw new UserFacingError('You already watch this.');
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'watches'] }),
  });
}

export function useRemoveWatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.from('scammer_watches').delete().eq('id', id);
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'watches'] }),
  });
}
