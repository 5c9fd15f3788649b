import { useMutation, useQueryClient } from '@tanstack/react-query';
import { asUserFacing } from '#web/lib/server-message.ts';
import { loadSupabase } from '#web/lib/supabase.ts';

/** Deletes a post: it leaves the news feed and the home page. */
export async function deletePost(id: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('admin_posts').delete().eq('id', id);
  if (error) throw asUserFacing(error);
}

export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['posts'] }),
        queryClient.invalidateQueries({ queryKey: ['news'] }),
      ]),
  });
}
