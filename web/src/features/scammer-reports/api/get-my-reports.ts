import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

export interface MyReport {
  id: string;
  scammer_name: string;
  business_name: string | null;
  status: string;
  /** Why it was not published (product §scammer-database: shown to the reporter). */
  rejection_reason: string | null;
  created_at: string;
}

/** The member's own reports, newest first (design.md: reporters see their own reports' status). */
export async function getMyReports(userId: string): Promise<MyReport[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_reports')
    .select('id, scammer_name, business_name, status, rejection_reason, created_at')
    .eq('reporter_user_id', userId)
    .order('created_at', { ascending: false })
    .limit(100);
  if (error) throw error;
  return (data ?? []) as MyReport[];
}

/** Invalidated by a new report (`['scammer-reports', 'mine']`). */
export const myReportsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'mine', { userId }],
    queryFn: () => getMyReports(userId),
  });
