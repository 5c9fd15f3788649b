import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { ADMIN_REPORT_COLUMNS, type AdminReport } from '../admin-report.ts';

/** One report under review, or null when there is none with that id. */
export async function getAdminReport(id: string): Promise<AdminReport | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_reports')
    .select(ADMIN_REPORT_COLUMNS)
    .eq('id', id)
    .maybeSingle();
  if (error) throw error;
  return data as AdminReport | null;
}

export const adminReportQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['scammer-reports', 'admin', 'one', id], queryFn: () => getAdminReport(id) });
