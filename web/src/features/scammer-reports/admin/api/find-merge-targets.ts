import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

export interface MergeTarget {
  id: string;
  scammer_name: string;
  business_name: string | null;
  reviewed_at: string | null;
}

/** Published reports (not merged themselves) a duplicate may be merged into, by name or business. */
export async function findMergeTargets(text: string, exclude: string): Promise<MergeTarget[]> {
  const supabase = await loadSupabase();
  const cleaned = text.trim().replace(/[%_,()\\]/g, ' ');
  const { data, error } = await supabase
    .from('scammer_reports')
    .select('id, scammer_name, business_name, reviewed_at')
    .eq('status', 'published')
    .is('merged_into', null)
    .neq('id', exclude)
    .or(`scammer_name.ilike.%${cleaned}%,business_name.ilike.%${cleaned}%`)
    .order('reviewed_at', { ascending: false })
    .limit(8);
  if (error) throw error;
  return (data ?? []) as MergeTarget[];
}

/** Asked once two characters are typed, and only while the report is not merged already. */
export const mergeTargetsQueryOptions = (text: string, report: { id: string; merged_into: string | null }) =>
  queryOptions({
    queryKey: ['scammer-reports', 'admin', 'merge-search', report.id, text.trim()],
    queryFn: () => findMergeTargets(text, report.id),
    enabled: text.trim().length >= 2 && report.merged_into === null,
  });
