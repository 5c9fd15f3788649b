import { loadSupabase } from '#web/lib/supabase.ts';
import { useCommentWrite } from './use-comment-write.ts';

/** The member's own comment, deleted. */
export async function deleteComment(id: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('product_comments').delete().eq('id', id);
  if (error) throw error;
}

export const useDeleteComment = () => useCommentWrite(deleteComment);
