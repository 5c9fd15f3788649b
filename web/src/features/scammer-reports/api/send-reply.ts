import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { ReplyKind, ReplyRelation } from './reply-kinds.ts';

export interface NewReply {
  kind: ReplyKind;
  relation: ReplyRelation;
  body: string;
}

/** Sends a reply, a correction or a takedown request about a published report, for review. */
export async function sendReply(reportId: string, values: NewReply) {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('scammer_report_replies').insert({ report_id: reportId, ...values });
  if (error) throw error;
}

export function useSendReply(reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: NewReply) => sendReply(reportId, values),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'my-replies'] }),
        // A sender sees the report they answered (decision 201).
        queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'for-reply'] }),
      ]),
  });
}
