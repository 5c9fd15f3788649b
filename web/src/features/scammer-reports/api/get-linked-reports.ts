import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/** Another published report sharing a contact identifier, and the identifier (decision 124). */
export interface LinkedReport {
  id: string;
  scammer_name: string;
  business_name: string | null;
  reviewed_at: string | null;
  kind: 'phone' | 'email' | 'domain' | 'handle';
  value: string;
}

export async function getLinkedReports(id: string): Promise<LinkedReport[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('linked_scammer_reports', { report_id: id });
  if (error) throw error;
  return (data ?? []) as LinkedReport[];
}

export const linkedReportsQueryOptions = (userId: string | null, id: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'linked', { userId, id }],
    queryFn: () => getLinkedReports(id),
    enabled: userId !== null,
  });
