import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

export interface MaskDecision {
  id: string;
  state: 'masked' | 'unmasked';
}

/** Keep a span masked, or unmask it (reversible: masking it again is one more decision). */
export async function decideMask({ id, state }: MaskDecision): Promise<void> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_masks')
    .update({ state })
    .eq('id', id)
    .select('id');
  if (error) throw error;
  if (!data || data.length === 0) throw new Error('The span could not be changed.');
}

export function useDecideMask(reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideMask,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'admin', 'masks', reportId] }),
  });
}
