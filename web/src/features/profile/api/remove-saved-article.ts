import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { activityQueryOptions } from './get-activity.ts';

/** Product §table-calls saved_articles: delete by user_id and id. */
export async function removeSavedArticle(userId: string, id: string): Promise<void> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('saved_articles')
    .delete()
    .eq('user_id', userId)
    .eq('id', id)
    .select('id');
  if (error) throw error;
  if (!data || data.length === 0) throw new Error('Saved article not found');
}

/** Removes a saved article; it leaves the cached activity without a reload. */
export function useRemoveSavedArticle(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => removeSavedArticle(userId, id),
    onSuccess: (_, id) =>
      queryClient.setQueryData(activityQueryOptions(userId).queryKey, (current) =>
        current ? { ...current, saved: current.saved.filter((item) => item.id !== id) } : current,
      ),
  });
}
