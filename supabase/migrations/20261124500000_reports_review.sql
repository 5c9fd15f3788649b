-- Scammer Network review and publishing (issue 19, decision 123): what admins add to a submitted report
-- before it is published — who claimed it, a public summary, the fields redacted from readers, the
-- reason of a rejection, when it was reviewed — and the search text readers search by.
-- The functions, views and policies that use these columns live in supabase/definitions/reports_*.sql.

-- The brand a report is about (the brand directory adds the same column; safe either way).
alter table public.scammer_reports add column if not exists brand_id uuid references public.brands (id) on delete set null;

-- The admin reviewing the report (set when it is claimed). No foreign key, like the audit log's actor:
-- every account's rows cascade on deletion (schema-catalog), and a report must not go with its reviewer.
alter table public.scammer_reports add column if not exists claimed_by uuid;
alter table public.scammer_reports add column if not exists claimed_at timestamptz;
-- What readers see above the reporter's own words: written by the reviewing admin.
alter table public.scammer_reports add column if not exists public_summary text;
alter table public.scammer_reports drop constraint if exists scammer_reports_public_summary_length;
alter table public.scammer_reports add constraint scammer_reports_public_summary_length
  check (public_summary is null or private.trimmed_length(public_summary) between 1 and 2000);
alter table public.scammer_reports drop constraint if exists scammer_reports_public_summary_markup;
alter table public.scammer_reports add constraint scammer_reports_public_summary_markup
  check (public_summary is null or not private.has_script_markup(public_summary));
-- Fields readers never see (a third party's home address, ID numbers, …): hidden as a whole. The
-- reporter's identity is never shown to readers whatever this holds.
alter table public.scammer_reports add column if not exists redacted_fields text[] not null default '{}';
alter table public.scammer_reports drop constraint if exists scammer_reports_redacted_fields_known;
alter table public.scammer_reports add constraint scammer_reports_redacted_fields_known
  check (redacted_fields <@ array[
    'scammer_description', 'incident_details', 'location', 'business_name', 'contact_info',
    'amount_scammed', 'date_of_incident'
  ]::text[] and array_position(redacted_fields, null) is null);
-- Why a report was not published: shown to the reporter in "My reports".
alter table public.scammer_reports add column if not exists rejection_reason text;
alter table public.scammer_reports drop constraint if exists scammer_reports_rejection_reason_length;
alter table public.scammer_reports add constraint scammer_reports_rejection_reason_length
  check (rejection_reason is null or private.trimmed_length(rejection_reason) between 5 and 1000);
alter table public.scammer_reports drop constraint if exists scammer_reports_rejection_reason_markup;
alter table public.scammer_reports add constraint scammer_reports_rejection_reason_markup
  check (rejection_reason is null or not private.has_script_markup(rejection_reason));
alter table public.scammer_reports drop constraint if exists scammer_reports_rejected_with_reason;
alter table public.scammer_reports add constraint scammer_reports_rejected_with_reason
  check (status <> 'rejected' or rejection_reason is not null);
-- When the status last changed, and when the report was published or rejected.
alter table public.scammer_reports add column if not exists status_changed_at timestamptz;
alter table public.scammer_reports add column if not exists reviewed_at timestamptz;

-- What readers search (typo-tolerant, pg_trgm): the name and the fields not redacted, lower-cased.
alter table public.scammer_reports add column if not exists search_text text generated always as (
  lower(
    scammer_name
    || ' ' || case when 'business_name' = any(redacted_fields) then '' else coalesce(business_name, '') end
    || ' ' || case when 'location' = any(redacted_fields) then '' else coalesce(location, '') end
    || ' ' || case when 'contact_info' = any(redacted_fields) then '' else coalesce(contact_info, '') end
  )
) stored;

create extension if not exists pg_trgm with schema extensions;

-- Search (decision 123): the words of search_text in a full-text index, and every word ever written in a
-- private vocabulary with a trigram index — a misspelt word is looked up there (small), then the reports
-- holding a close word through the full-text index (fast at any size).
create index if not exists scammer_reports_published_search_words_idx
  on public.scammer_reports using gin (to_tsvector('simple'::regconfig, search_text)) where status = 'published';
create table if not exists private.scammer_report_words (
  word text primary key
);
-- Nearest words first (KNN): the lookup stops after the closest few instead of checking every word
-- sharing a trigram.
create index if not exists scammer_report_words_trgm_idx
  on private.scammer_report_words using gist (word extensions.gist_trgm_ops);
revoke all on table private.scammer_report_words from public, anon, authenticated, service_role;
create index if not exists scammer_reports_published_reviewed_at_idx
  on public.scammer_reports (reviewed_at desc, id) where status = 'published';
-- Largest amount first, as readers see amounts (a redacted amount sorts last).
create index if not exists scammer_reports_published_amount_idx
  on public.scammer_reports (
    (case when 'amount_scammed' = any(redacted_fields) then null else amount_scammed end) desc nulls last,
    reviewed_at desc, id
  ) where status = 'published';
-- The review queue, oldest first.
create index if not exists scammer_reports_queue_idx
  on public.scammer_reports (created_at, id) where status in ('submitted', 'under_review');
create index if not exists scammer_reports_claimed_by_idx on public.scammer_reports (claimed_by) where claimed_by is not null;
create index if not exists scammer_reports_brand_id_idx on public.scammer_reports (brand_id) where brand_id is not null;

-- ---------------------------------------------------------------------------------------------------
-- Repeat offenders (issue 19, decision 124): the contact identifiers of each report, normalised (phones
-- to E.164, emails, registrable domains, handles), kept by a trigger on every write. Private: readers
-- see links only through public.linked_scammer_reports, which leaves out what is redacted.
-- ---------------------------------------------------------------------------------------------------

create table if not exists private.scammer_report_identifiers (
  report_id uuid not null references public.scammer_reports (id) on delete cascade,
  kind text not null constraint scammer_report_identifiers_kind_check check (kind in ('phone', 'email', 'domain', 'handle')),
  value text not null constraint scammer_report_identifiers_value_length check (char_length(value) between 2 and 254),
  primary key (report_id, kind, value)
);
create index if not exists scammer_report_identifiers_kind_value_idx
  on private.scammer_report_identifiers (kind, value, report_id);
revoke all on table private.scammer_report_identifiers from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- Watch alerts (issue 19, decision 125): a member with access watches a name, business, phone, email
-- or domain; when a matching report is published they get a notification and a mail.
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.scammer_watches (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  kind text not null constraint scammer_watches_kind_check check (kind in ('name', 'business', 'phone', 'email', 'domain')),
  value text not null
    constraint scammer_watches_value_length check (private.trimmed_length(value) between 2 and 200)
    constraint scammer_watches_value_markup check (not private.has_script_markup(value)),
  -- What is compared: set by the database from kind and value (decision 124's rules).
  normalised text not null default '',
  created_at timestamptz not null default now(),
  constraint scammer_watches_once unique (user_id, kind, normalised)
);
create index if not exists scammer_watches_kind_normalised_idx on public.scammer_watches (kind, normalised);

alter table public.scammer_watches enable row level security;
-- RLS does not cover these (schema-catalog).
revoke truncate, references, trigger on public.scammer_watches from anon, authenticated;
