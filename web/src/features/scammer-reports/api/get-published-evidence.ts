import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { EVIDENCE_URL_SECONDS } from '../evidence.ts';
import { type EvidenceFile, withSignedUrls } from './signed-evidence-urls.ts';

/** Readers: the approved files of a published report. */
export async function getPublishedEvidence(reportId: string): Promise<EvidenceFile[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('published_scammer_report_evidence')
    .select('id, object_name, content_type')
    .eq('report_id', reportId)
    .order('approved_at');
  if (error) throw error;
  return withSignedUrls(data ?? []);
}

export const publishedEvidenceQueryOptions = (userId: string | null, reportId: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'evidence', { userId, reportId }],
    queryFn: () => getPublishedEvidence(reportId),
    enabled: userId !== null,
    // Links expire: fetch new ones well before.
    staleTime: (EVIDENCE_URL_SECONDS / 2) * 1000,
    refetchInterval: (EVIDENCE_URL_SECONDS / 2) * 1000,
  });
