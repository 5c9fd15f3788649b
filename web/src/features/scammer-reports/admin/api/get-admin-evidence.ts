import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { type EvidenceFile, withSignedUrls } from '../../api/signed-evidence-urls.ts';
import { EVIDENCE_URL_SECONDS } from '../../evidence.ts';

/** Admins: every file of a report, with its original name and whether it is approved. */
export interface AdminEvidenceFile extends EvidenceFile {
  file_name: string;
  approved_at: string | null;
  /** When the server stored the copy without metadata; approval needs it (decision 199). */
  cleaned_at: string | null;
}

export async function getAdminEvidence(reportId: string): Promise<AdminEvidenceFile[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('scammer_report_evidence')
    .select('id, object_name, content_type, file_name, approved_at, cleaned_at')
    .eq('report_id', reportId)
    .order('created_at');
  if (error) throw error;
  return withSignedUrls(data ?? []);
}

export const adminEvidenceQueryOptions = (reportId: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'admin', 'evidence', reportId],
    queryFn: () => getAdminEvidence(reportId),
    staleTime: (EVIDENCE_URL_SECONDS / 2) * 1000,
  });
