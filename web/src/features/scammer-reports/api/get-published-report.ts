import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/** A published report as readers with access see it: no reporter, redacted fields null. */
export interface PublishedReport {
  id: string;
  scammer_name: string;
  scammer_description: string | null;
  incident_details: string | null;
  location: string | null;
  business_name: string | null;
  contact_info: string | null;
  amount_scammed: number | string | null;
  date_of_incident: string | null;
  public_summary: string | null;
  redacted_fields: string[];
  reported_at: string;
  reviewed_at: string | null;
}

/** Whether an address's id can name a report at all (else there is nothing to ask for). */
export const isReportId = (id: string) => /^[0-9a-f-]{36}$/i.test(id);

/** One published report, or null when there is none the reader may see. */
export async function getPublishedReport(id: string): Promise<PublishedReport | null> {
  if (!isReportId(id)) return null;
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('published_scammer_reports')
    .select('*')
    .eq('id', id)
    .maybeSingle();
  if (error) throw error;
  return data as PublishedReport | null;
}

export const publishedReportQueryOptions = (userId: string | null, id: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'published', { userId, id }],
    queryFn: () => getPublishedReport(id),
    enabled: userId !== null,
  });
