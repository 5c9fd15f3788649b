import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/** A change readers can see to a published report (decision 201): its kind and when, never the text. */
export interface ReportUpdate {
  kind: 'summary' | 'masking' | 'evidence';
  changed_at: string;
}

export async function getReportUpdates(id: string): Promise<ReportUpdate[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_updates')
    .select('kind, changed_at')
    .eq('report_id', id)
    .order('changed_at', { ascending: false });
  if (error) throw error;
  return (data ?? []) as ReportUpdate[];
}

export const reportUpdatesQueryOptions = (userId: string | null, id: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'updates', { userId, id }],
    queryFn: () => getReportUpdates(id),
    enabled: userId !== null,
  });
