import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserFacingError } from '#web/lib/error-text.ts';
import { refusalOf } from '#web/lib/refusals.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { AdminReport } from '../admin-report.ts';

export type ReviewChange = Partial<
  Pick<
    AdminReport,
    | 'status'
    | 'public_summary'
    | 'redacted_fields'
    | 'rejection_reason'
    | 'claimed_by'
    | 'brand_id'
    | 'merged_into'
  >
>;

/** One review step; the database checks the flow, audits it and tells the reporter. */
export async function reviewReport(id: string, change: ReviewChange): Promise<void> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('scammer_reports').update(change).eq('id', id).select('id');
  // A rule of the mapping travels as it came, so the form puts it at its field (decision 180); the
  // flow's other refusals are written for the admin ("A submitted report cannot be marked published.").
  if (error && refusalOf(error)) throw error;
  if (error?.code === '23514') throw new UserFacingError(error.message);
  if (error) throw error;
  if (!data || data.length === 0) throw new Error('The report could not be changed.');
}

export function useReviewReport(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ReviewChange) => reviewReport(id, change),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['scammer-reports'] }),
  });
}
