import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { MaskableField } from '../masks.ts';

export interface MaskSpan {
  field: MaskableField;
  start_at: number;
  end_at: number;
}

/** Mask a span by hand; the database checks it lies in the text and overlaps no masked span. */
export async function addMask(reportId: string, span: MaskSpan): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('scammer_report_masks').insert({ report_id: reportId, ...span });
  if (error) throw error;
}

export function useAddMask(reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (span: MaskSpan) => addMask(reportId, span),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'admin', 'masks', reportId] }),
  });
}
