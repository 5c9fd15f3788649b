import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/** Stops one of the member's watches. */
export async function removeWatch(id: string) {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('scammer_watches').delete().eq('id', id);
  if (error) throw error;
}

export function useRemoveWatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeWatch,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'watches'] }),
  });
}
