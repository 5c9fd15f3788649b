import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

export interface MergeTarget {
  id: string;
  scammer_name: string;
  business_name: string | null;
  reviewed_at: string | null;
}

/**
 * Published reports (not merged themselves) a duplicate may be merged into, by name or business, the
 * most recently reviewed first (decision 258).
 */
export async function findMergeTargets(text: string, exclude: string): Promise<MergeTarget[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('admin_find_merge_targets', { q: text.trim(), exclude });
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
