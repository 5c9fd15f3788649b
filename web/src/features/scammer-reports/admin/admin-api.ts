import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { UserFacingError } from '#web/lib/error-text.ts';
import { refusalOf } from '#web/lib/refusals.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { RedactableField } from '../database.ts';

/** A report as the reviewing admins see it (decision 123): everything, with the review fields. */
export interface AdminReport {
  id: string;
  scammer_name: string;
  scammer_description: string;
  incident_details: string;
  location: string | null;
  business_name: string | null;
  contact_info: string | null;
  amount_scammed: number | string | null;
  date_of_incident: string | null;
  reporter_user_id: string;
  status: 'submitted' | 'under_review' | 'published' | 'rejected';
  claimed_by: string | null;
  claimed_at: string | null;
  public_summary: string | null;
  redacted_fields: RedactableField[];
  rejection_reason: string | null;
  reviewed_at: string | null;
  created_at: string;
  brand_id: string | null;
  merged_into: string | null;
}

export type QueueView = 'queue' | 'published' | 'rejected';

const COLUMNS =
  'id, scammer_name, scammer_description, incident_details, location, business_name, contact_info, amount_scammed, date_of_incident, reporter_user_id, status, claimed_by, claimed_at, public_summary, redacted_fields, rejection_reason, reviewed_at, created_at, brand_id, merged_into';

/** The review queue oldest first; published and rejected ones newest first. */
export async function getAdminReports(view: QueueView): Promise<AdminReport[]> {
  const supabase = await loadSupabase();
  const query = supabase.from('scammer_reports').select(COLUMNS);
  const { data, error } =
    view === 'queue'
      ? await query
          .in('status', ['submitted', 'under_review'])
          .order('created_at', { ascending: true })
          .limit(100)
      : await query.eq('status', view).order('reviewed_at', { ascending: false }).limit(100);
  if (error) throw error;
  return (data ?? []) as AdminReport[];
}

export const adminReportsQueryOptions = (view: QueueView) =>
  queryOptions({ queryKey: ['scammer-reports', 'admin', view], queryFn: () => getAdminReports(view) });

export async function getAdminReport(id: string): Promise<AdminReport | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('scammer_reports').select(COLUMNS).eq('id', id).maybeSingle();
  if (error) throw error;
  return data as AdminReport | null;
}

export const adminReportQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['scammer-reports', 'admin', 'one', id], queryFn: () => getAdminReport(id) });

export type ReviewChange = Partial<
  Pick<
    AdminReport,
    | 'status'
    | 'public_summary'
    | 'redacted_fields'
    | 'rejection_reason'
    | 'claimed_by'
    | 'brand_id'
    | 'merged_into'
  >
>;

/** One review step; the database checks the flow, audits it and tells the reporter. */
export function useReviewReport(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: ReviewChange) => {
      const supabase = await loadSupabase();
      const { data, error } = await supabase.from('scammer_reports').update(change).eq('id', id).select('id');
      // A rule of the mapping travels as it came, so the form puts it at its field (decision 180); the
      // flow's other refusals are written for the admin ("A submitted report cannot be marked published.").
      if (error && refusalOf(error)) throw error;
      if (error?.code === '23514') throw new UserFacingError(error.message);
      if (error) throw error;
      if (!data || data.length === 0) throw new Error('The report could not be changed.');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['scammer-reports'] }),
  });
}

export interface BrandOption {
  id: string;
  name: string;
  slug: string;
}

/** Brands by name, for linking a report (public.brands). */
export async function findBrands(text: string): Promise<BrandOption[]> {
  const supabase = await loadSupabase();
  const pattern = `%${text.trim().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  const { data, error } = await supabase
    .from('brands')
    .select('id, name, slug')
    .ilike('name', pattern)
    .order('name')
    .limit(8);
  if (error) throw error;
  return (data ?? []) as BrandOption[];
}

export async function getBrand(id: string): Promise<BrandOption | null> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('brands').select('id, name, slug').eq('id', id).maybeSingle();
  if (error) throw error;
  return data as BrandOption | null;
}

export interface MergeTarget {
  id: string;
  scammer_name: string;
  business_name: string | null;
  reviewed_at: string | null;
}

/** Published reports (not merged themselves) a duplicate may be merged into, by name or business. */
export async function findMergeTargets(text: string, exclude: string): Promise<MergeTarget[]> {
  const supabase = await loadSupabase();
  const cleaned = text.trim().replace(/[%_,()\\]/g, ' ');
  const { data, error } = await supabase
    .from('scammer_reports')
    .select('id, scammer_name, business_name, reviewed_at')
    .eq('status', 'published')
    .is('merged_into', null)
    .neq('id', exclude)
    .or(`scammer_name.ilike.%${cleaned}%,business_name.ilike.%${cleaned}%`)
    .order('reviewed_at', { ascending: false })
    .limit(8);
  if (error) throw error;
  return (data ?? []) as MergeTarget[];
}
