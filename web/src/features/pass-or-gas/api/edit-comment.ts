import { loadSupabase } from '#web/lib/supabase.ts';
import { useCommentWrite } from './use-comment-write.ts';

/** The member's own comment, changed (the database marks it edited; a hidden one cannot be). */
export async function editComment({ id, content }: { id: string; content: string }): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('product_comments').update({ content }).eq('id', id);
  if (error) throw error;
}

export const useEditComment = () => useCommentWrite(editComment);
