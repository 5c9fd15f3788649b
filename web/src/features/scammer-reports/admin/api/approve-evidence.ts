import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/** Admins: shows an evidence file to readers, or takes it back. */
export async function approveEvidence({ id, approved }: { id: string; approved: boolean }) {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_evidence')
    .update({ approved_at: approved ? new Date().toISOString() : null })
    .eq('id', id)
    .select('id');
  if (error) throw error;
  if (!data || data.length === 0) throw new Error('The file could not be changed.');
}

export function useApproveEvidence(reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveEvidence,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'admin', 'evidence', reportId] }),
  });
}
