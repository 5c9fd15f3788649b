/**
 * A reviewer's steps on a scammer report through the Data API (tests of the Scammer Network). The
 * database proposes a mask for every phone number, email and street address in a report's free text,
 * the contact details and the accused's name included (decision 240), and publishing waits until a
 * reviewer has decided each; these helpers decide them as a reviewer does for the accused's own
 * details: unmasked. Tests about masking decide the proposals themselves.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** The reviewer shows every span the database proposed to mask on the report. */
export async function unmaskProposals(reviewer: SupabaseClient, id: string): Promise<void> {
  const { error } = await reviewer
    .from('scammer_report_masks')
    .update({ state: 'unmasked' })
    .eq('report_id', id)
    .eq('state', 'proposed');
  if (error) throw new Error(error.message);
}

/** Each step is one update of the report; before a step that publishes, the proposals are decided. */
export async function reviewSteps(
  reviewer: SupabaseClient,
  id: string,
  steps: readonly Record<string, unknown>[],
): Promise<void> {
  for (const step of steps) {
    if (step.status === 'published') await unmaskProposals(reviewer, id);
    const { error } = await reviewer.from('scammer_reports').update(step).eq('id', id);
    if (error) throw new Error(error.message);
  }
}
