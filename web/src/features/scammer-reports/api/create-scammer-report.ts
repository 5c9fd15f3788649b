import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { ReportRow } from '../report.ts';

/** product §table-calls "scammer_reports: insert". Resolves the error supabase-js returned, or null. */
export async function createScammerReport(row: ReportRow & { id?: string }): Promise<unknown | null> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('scammer_reports').insert(row);
  return error;
}

/** The insert for the submission flow; a stored report makes the member's report list stale. */
export function useCreateScammerReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createScammerReport,
    onSuccess: (error) => {
      if (!error) void queryClient.invalidateQueries({ queryKey: ['scammer-reports', 'mine'] });
    },
  });
}
