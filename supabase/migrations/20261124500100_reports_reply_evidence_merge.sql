-- Scammer Network, what was left of issue 19: the right of reply (decision 126), evidence files
-- (decision 141) and duplicates merged into one report (decision 142). Tables, columns and the
-- evidence bucket; the functions, views and policies live in supabase/definitions/reports_*.sql.

-- ---------------------------------------------------------------------------------------------------
-- Duplicates (decision 142): a report merged into another disappears from readers; the reporter still
-- sees it in "My reports". Only admins set it (guard_scammer_report).
-- ---------------------------------------------------------------------------------------------------
alter table public.scammer_reports add column if not exists merged_into uuid
  references public.scammer_reports (id) on delete set null;
alter table public.scammer_reports drop constraint if exists scammer_reports_not_merged_into_itself;
alter table public.scammer_reports add constraint scammer_reports_not_merged_into_itself
  check (merged_into is distinct from id);
create index if not exists scammer_reports_merged_into_idx on public.scammer_reports (merged_into)
  where merged_into is not null;

-- ---------------------------------------------------------------------------------------------------
-- Right of reply (decision 126): a signed-in member named in a published report sends a reply, a
-- correction or a takedown request; admins accept or decline it with a note; accepted replies and
-- corrections are shown under the report to its readers.
-- ---------------------------------------------------------------------------------------------------
create table if not exists public.scammer_report_replies (
  id uuid primary key default gen_random_uuid(),
  report_id uuid not null references public.scammer_reports (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  kind text not null constraint scammer_report_replies_kind_check check (kind in ('reply', 'correction', 'takedown')),
  -- How the sender is named in the report.
  relation text not null
    constraint scammer_report_replies_relation_check check (relation in ('person', 'business', 'representative')),
  body text not null
    constraint scammer_report_replies_body_length check (private.trimmed_length(body) between 20 and 2000)
    constraint scammer_report_replies_body_markup check (not private.has_script_markup(body)),
  status text not null default 'pending'
    constraint scammer_report_replies_status_check check (status in ('pending', 'accepted', 'declined')),
  -- The admin's note to the sender (required when declining).
  decision_note text
    constraint scammer_report_replies_note_length check (decision_note is null or private.trimmed_length(decision_note) between 5 and 1000)
    constraint scammer_report_replies_note_markup check (decision_note is null or not private.has_script_markup(decision_note)),
  -- No foreign key, like claimed_by: a decision must not go with the admin's account.
  decided_by uuid,
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  constraint scammer_report_replies_declined_with_note check (status <> 'declined' or decision_note is not null)
);
create index if not exists scammer_report_replies_queue_idx on public.scammer_report_replies (created_at, id)
  where status = 'pending';
create index if not exists scammer_report_replies_report_idx on public.scammer_report_replies (report_id, decided_at)
  where status = 'accepted';
create index if not exists scammer_report_replies_user_idx on public.scammer_report_replies (user_id, created_at);

alter table public.scammer_report_replies enable row level security;
revoke truncate, references, trigger on public.scammer_report_replies from anon, authenticated;

-- ---------------------------------------------------------------------------------------------------
-- Evidence (decision 141): up to 5 images or PDFs per report in the private bucket scammer-evidence,
-- under <report id>/<random>.<ext> (never the reporter's id). Each file has a row here; readers with
-- access get a file only once an admin approved it and the report is published.
-- ---------------------------------------------------------------------------------------------------
create table if not exists public.scammer_report_evidence (
  id uuid primary key default gen_random_uuid(),
  report_id uuid not null references public.scammer_reports (id) on delete cascade,
  object_name text not null constraint scammer_report_evidence_object_name_unique unique
    constraint scammer_report_evidence_object_name_format
    check (object_name ~ '^[0-9a-f-]{36}/[0-9a-f-]{36}\.(jpg|png|webp|gif|pdf)$'),
  -- The name the reporter's file had: for admins only (it may hold personal data).
  file_name text not null
    constraint scammer_report_evidence_file_name_length check (char_length(file_name) between 1 and 255)
    constraint scammer_report_evidence_file_name_characters check (file_name !~ '[[:cntrl:]]'),
  content_type text not null constraint scammer_report_evidence_content_type_check
    check (content_type in ('image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf')),
  approved_at timestamptz,
  approved_by uuid,
  created_at timestamptz not null default now()
);
create index if not exists scammer_report_evidence_report_idx on public.scammer_report_evidence (report_id, created_at);

alter table public.scammer_report_evidence enable row level security;
revoke truncate, references, trigger on public.scammer_report_evidence from anon, authenticated;

-- The bucket: private (no public URLs), the general 5 MB limit, spec §5's image types and PDF. The
-- storage service checks size and declared type while streaming and sniffs the bytes (file-type).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('scammer-evidence', 'scammer-evidence', false, 5242880,
  array['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types,
  updated_at = now();
