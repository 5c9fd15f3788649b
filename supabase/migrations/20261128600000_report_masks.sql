-- Masked spans of a scammer report's free text (issue 32 part 2, decision 197): reviewers hide a piece of
-- a field (a third party's phone number inside the incident, an address) instead of the whole field.
-- Each row is one span of one field, in characters (code points) from 0, end excluded. The database
-- proposes spans it detects (phone numbers, email addresses, street addresses: kind <> 'manual',
-- state 'proposed'); a reviewer keeps ('masked') or unmasks ('unmasked') each one, and masks further
-- spans by hand. Readers' views replace every span not 'unmasked' (reports_read.sql). Policies, guard,
-- detection and audit: supabase/definitions/reports_masks.sql.

create table if not exists public.scammer_report_masks (
  id uuid primary key default gen_random_uuid(),
  report_id uuid not null references public.scammer_reports (id) on delete cascade,
  field text not null
    constraint scammer_report_masks_field_check check (field in (
      'scammer_description', 'incident_details', 'location', 'business_name', 'contact_info'
    )),
  start_at integer not null,
  end_at integer not null,
  kind text not null default 'manual'
    constraint scammer_report_masks_kind_check check (kind in ('manual', 'phone', 'email', 'address')),
  state text not null default 'masked'
    constraint scammer_report_masks_state_check check (state in ('proposed', 'masked', 'unmasked')),
  -- Who masked the span by hand (null for a proposal: the database made it), and who last decided.
  -- No foreign keys, like claimed_by: a mask stays when an admin's account goes.
  created_by uuid,
  created_at timestamptz not null default now(),
  decided_by uuid,
  decided_at timestamptz,
  constraint scammer_report_masks_range check (start_at >= 0 and end_at > start_at)
);
create index if not exists scammer_report_masks_report_field_idx
  on public.scammer_report_masks (report_id, field, start_at);
create index if not exists scammer_report_masks_proposed_idx
  on public.scammer_report_masks (report_id) where state = 'proposed';

alter table public.scammer_report_masks enable row level security;
revoke truncate, references, trigger on public.scammer_report_masks from anon, authenticated;
