import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { ReplyRelation } from './reply-kinds.ts';

export interface PublishedReply {
  id: string;
  kind: 'reply' | 'correction';
  relation: ReplyRelation;
  body: string;
  published_at: string;
}

/** Readers: the accepted replies and corrections under a published report, oldest first. */
export async function getPublishedReplies(reportId: string): Promise<PublishedReply[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('published_scammer_report_replies')
    .select('id, kind, relation, body, published_at')
    .eq('report_id', reportId)
    .order('published_at');
  if (error) throw error;
  return (data ?? []) as PublishedReply[];
}

export const publishedRepliesQueryOptions = (userId: string | null, reportId: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'replies', { userId, reportId }],
    queryFn: () => getPublishedReplies(reportId),
    enabled: userId !== null,
  });
