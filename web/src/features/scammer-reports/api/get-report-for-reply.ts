import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { isReportId, type PublishedReport } from './get-published-report.ts';

/** The report a reply answers, as readers see it: for readers, its brand's representatives and its repliers. */
export async function getReportForReply(id: string): Promise<PublishedReport | null> {
  if (!isReportId(id)) return null;
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('scammer_report_for_reply', { report_id: id });
  if (error) throw error;
  return ((data ?? []) as PublishedReport[])[0] ?? null;
}

/** Invalidated when the member sends a request about it (`['scammer-reports', 'for-reply']`). */
export const reportForReplyQueryOptions = (userId: string | null, id: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'for-reply', { userId, id }],
    queryFn: () => getReportForReply(id),
    enabled: userId !== null,
  });
