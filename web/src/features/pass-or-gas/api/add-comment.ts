import { loadSupabase } from '#web/lib/supabase.ts';
import { useCommentWrite } from './use-comment-write.ts';

/** product §pass-or-gas: the member's comment on a product (plain text; the database checks it). */
export async function addComment({
  productId,
  content,
}: {
  productId: string;
  content: string;
}): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('product_comments').insert({ product_id: productId, content });
  if (error) throw error;
}

export const useAddComment = () => useCommentWrite(addComment);
