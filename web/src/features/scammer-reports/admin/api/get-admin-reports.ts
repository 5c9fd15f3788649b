import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { ADMIN_REPORT_COLUMNS, type AdminReport } from '../admin-report.ts';

export type QueueView = 'queue' | 'published' | 'rejected';

/** The review queue oldest first; published and rejected ones newest first. */
export async function getAdminReports(view: QueueView): Promise<AdminReport[]> {
  const supabase = await loadSupabase();
  const query = supabase.from('scammer_reports').select(ADMIN_REPORT_COLUMNS);
  const { data, error } =
    view === 'queue'
      ? await query
          .in('status', ['submitted', 'under_review'])
          .order('created_at', { ascending: true })
          .limit(100)
      : await query.eq('status', view).order('reviewed_at', { ascending: false }).limit(100);
  if (error) throw error;
  return (data ?? []) as AdminReport[];
}

export const adminReportsQueryOptions = (view: QueueView) =>
  queryOptions({ queryKey: ['scammer-reports', 'admin', view], queryFn: () => getAdminReports(view) });
