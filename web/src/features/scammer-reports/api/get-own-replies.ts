import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { ReplyKind } from './reply-kinds.ts';

export interface OwnReply {
  id: string;
  kind: ReplyKind;
  body: string;
  status: 'pending' | 'accepted' | 'declined';
  decision_note: string | null;
  created_at: string;
}

/** What the member sent about a report, newest first, with the reviewers' decisions. */
export async function getOwnReplies(reportId: string): Promise<OwnReply[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_replies')
    .select('id, kind, body, status, decision_note, created_at')
    .eq('report_id', reportId)
    .order('created_at', { ascending: false });
  if (error) throw error;
  return (data ?? []) as OwnReply[];
}

export const ownRepliesQueryOptions = (userId: string | null, reportId: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'my-replies', { userId, reportId }],
    queryFn: () => getOwnReplies(reportId),
    enabled: userId !== null,
  });
