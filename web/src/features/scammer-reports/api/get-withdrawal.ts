import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { isReportId } from './get-published-report.ts';

/** When a report readers could open was withdrawn, or null (decision 202). */
export async function getWithdrawal(id: string): Promise<string | null> {
  if (!isReportId(id)) return null;
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('withdrawn_scammer_reports')
    .select('withdrawn_at')
    .eq('id', id)
    .maybeSingle();
  if (error) throw error;
  return (data?.withdrawn_at as string | undefined) ?? null;
}

export const withdrawalQueryOptions = (userId: string | null, id: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'withdrawn', { userId, id }],
    queryFn: () => getWithdrawal(id),
    enabled: userId !== null,
  });
