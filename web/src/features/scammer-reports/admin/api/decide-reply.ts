import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

export interface ReplyDecision {
  id: string;
  status: 'accepted' | 'declined';
  decision_note: string | null;
}

/** Admins: accepts or declines a reply, a correction or a takedown request, with a note to its sender. */
export async function decideReply(change: ReplyDecision) {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_replies')
    .update({ status: change.status, decision_note: change.decision_note })
    .eq('id', change.id)
    .select('id');
  if (error) throw error;
  if (!data || data.length === 0) throw new Error('The request could not be changed.');
}

export function useDecideReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideReply,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['scammer-reports'] }),
  });
}
