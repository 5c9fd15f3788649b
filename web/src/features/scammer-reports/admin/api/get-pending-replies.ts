import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { OwnReply } from '../../api/get-own-replies.ts';
import type { ReplyRelation } from '../../api/reply-kinds.ts';

/** Admins: the requests waiting, oldest first, with the report they are about. */
export interface AdminReply extends OwnReply {
  report_id: string;
  relation: ReplyRelation;
  scammer_reports: { scammer_name: string; status: string } | null;
}

export async function getPendingReplies(): Promise<AdminReply[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_replies')
    .select(
      'id, report_id, kind, relation, body, status, decision_note, created_at, scammer_reports(scammer_name, status)',
    )
    .eq('status', 'pending')
    .order('created_at')
    .limit(100);
  if (error) throw error;
  return (data ?? []) as unknown as AdminReply[];
}

export const pendingRepliesQueryOptions = () =>
  queryOptions({ queryKey: ['scammer-reports', 'admin', 'replies'], queryFn: getPendingReplies });
