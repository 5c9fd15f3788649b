import { loadSupabase } from '#web/lib/supabase.ts';
import { useCommentWrite } from './use-comment-write.ts';

/** Reports a comment to the moderators, with an optional reason (the author is not told who). */
export async function reportComment({ id, reason }: { id: string; reason: string }): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('product_comment_reports').insert({ comment_id: id, reason });
  if (error) throw error;
}

export const useReportComment = () => useCommentWrite(reportComment);
