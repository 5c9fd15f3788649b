import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserFacingError } from '#web/lib/error-text.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { WatchKind } from './get-watches.ts';

/** Watches a name, business, phone, email or website: told when a matching report is published. */
export async function addWatch(watch: { kind: WatchKind; value: string }) {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('scammer_watches').insert(watch);
  // The database's refusals are written for the member ("Enter a phone number with its area code …").
  if (error?.code === '23514') throw new UserFacingError(error.message);
  if (error?.code === '23505') throw new UserFacingError('You already watch this.');
  if (error) throw error;
}

export function useAddWatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addWatch,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'watches'] }),
  });
}
