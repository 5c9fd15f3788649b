import { loadSupabase } from '#web/lib/supabase.ts';
import { useCommentWrite } from './use-comment-write.ts';

/** Likes a comment, or takes the member's like back when `liked`. */
export async function toggleCommentLike({ id, liked }: { id: string; liked: boolean }): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = liked
    ? await supabase.from('product_comment_likes').delete().eq('comment_id', id)
    : await supabase.from('product_comment_likes').insert({ comment_id: id });
  if (error) throw error;
}

export const useToggleCommentLike = () => useCommentWrite(toggleCommentLike);
