import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { type SearchFilters, searchArgs } from '../database.ts';

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

export const PAGE_SIZE = 20;

/** product §scammer-database: the search (typo-tolerant), filters and sort; one page more per "Show more". */
export async function searchReports(filters: SearchFilters, pages: number): Promise<PublishedReport[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc(
    'search_scammer_reports',
    searchArgs(filters, PAGE_SIZE * pages + 1),
  );
  if (error) throw error;
  return (data ?? []) as PublishedReport[];
}

export const searchReportsQueryOptions = (userId: string | null, filters: SearchFilters, pages: number) =>
  queryOptions({
    queryKey: ['scammer-reports', 'search', { userId, filters, pages }],
    queryFn: () => searchReports(filters, pages),
    enabled: userId !== null,
    placeholderData: (previous) => previous,
  });

/** One published report, or null when there is none the reader may see. */
export async function getPublishedReport(id: string): Promise<PublishedReport | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
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

/** Another published report sharing a contact identifier, and the identifier (decision 124). */
export interface LinkedReport {
  id: string;
  scammer_name: string;
  business_name: string | null;
  reviewed_at: string | null;
  kind: 'phone' | 'email' | 'domain' | 'handle';
  value: string;
}

export async function getLinkedReports(id: string): Promise<LinkedReport[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('linked_scammer_reports', { report_id: id });
  if (error) throw error;
  return (data ?? []) as LinkedReport[];
}

export const linkedReportsQueryOptions = (userId: string | null, id: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'linked', { userId, id }],
    queryFn: () => getLinkedReports(id),
    enabled: userId !== null,
  });

/** A change readers can see to a published report (decision 201): its kind and when, never the text. */
export interface ReportUpdate {
  kind: 'summary' | 'masking' | 'evidence';
  changed_at: string;
}

export const reportUpdatesQueryOptions = (userId: string | null, id: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'updates', { userId, id }],
    queryFn: async (): Promise<ReportUpdate[]> => {
      const supabase = await loadSupabase();
      const { data, error } = await supabase
        .from('scammer_report_updates')
        .select('kind, changed_at')
        .eq('report_id', id)
        .order('changed_at', { ascending: false });
      if (error) throw error;
      return (data ?? []) as ReportUpdate[];
    },
    enabled: userId !== null,
  });

/** When a report readers could open was withdrawn, or null (decision 202). */
export const withdrawalQueryOptions = (userId: string | null, id: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'withdrawn', { userId, id }],
    queryFn: async (): Promise<string | null> => {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      const supabase = await loadSupabase();
      const { data, error } = await supabase
        .from('withdrawn_scammer_reports')
        .select('withdrawn_at')
        .eq('id', id)
        .maybeSingle();
      if (error) throw error;
      return (data?.withdrawn_at as string | undefined) ?? null;
    },
    enabled: userId !== null,
  });

/** The report a reply answers, as readers see it: for readers, its brand's representatives and its repliers. */
export const reportForReplyQueryOptions = (userId: string | null, id: string) =>
  queryOptions({
    queryKey: ['scammer-reports', 'for-reply', { userId, id }],
    queryFn: async (): Promise<PublishedReport | null> => {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      const supabase = await loadSupabase();
      const { data, error } = await supabase.rpc('scammer_report_for_reply', { report_id: id });
      if (error) throw error;
      return ((data ?? []) as PublishedReport[])[0] ?? null;
    },
    enabled: userId !== null,
  });
