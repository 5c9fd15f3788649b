import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { Mask } from '../masks.ts';

/** The masked spans of a report (decision 197), by field and position. */
export async function getMasks(reportId: string): Promise<Mask[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_masks')
    .select('id, field, start_at, end_at, kind, state')
    .eq('report_id', reportId)
    .order('field')
    .order('start_at');
  if (error) throw error;
  return (data ?? []) as Mask[];
}

export const masksQueryOptions = (reportId: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'admin', 'masks', reportId],
    queryFn: () => getMasks(reportId),
  });
