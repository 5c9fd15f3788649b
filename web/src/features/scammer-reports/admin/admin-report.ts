import type { RedactableField } from '../database.ts';
import type { ReportRow } from '../report.ts';

/** A report as the reviewing admins see it (decision 123): what the member wrote, with the review fields. */
export interface AdminReport extends Omit<ReportRow, 'amount_scammed' | 'status' | 'truth_confirmed_at'> {
  id: string;
  amount_scammed: number | string | null;
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

/** The columns of public.scammer_reports an AdminReport holds. */
export const ADMIN_REPORT_COLUMNS =
  'id, scammer_name, scammer_description, incident_details, location, business_name, contact_info, amount_scammed, date_of_incident, reporter_user_id, status, claimed_by, claimed_at, public_summary, redacted_fields, rejection_reason, reviewed_at, created_at, brand_id, merged_into';
