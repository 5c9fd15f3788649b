import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { type DashboardCounts, parseDashboardCounts } from '../dashboard.ts';

/** One call for every count of the dashboard home (admins only; the server refuses anyone else). */
export async function getDashboardCounts(): Promise<DashboardCounts> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('admin_dashboard_counts');
  if (error) throw error;
  return parseDashboardCounts(data);
}

/** Live: refetched every 30 s while the page is open and whenever an admin write invalidates ['admin']. */
export const dashboardCountsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'dashboard', {}],
    queryFn: getDashboardCounts,
    refetchInterval: 30_000,
  });
