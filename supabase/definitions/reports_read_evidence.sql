-- Evidence files of scammer reports (issue 19, decision 141). The reporter attaches up to 5 images or
-- PDFs to a report while it is submitted: a row here first (the slot, which the database counts), then
-- the file, through the server's evidence-upload function, which stores only a copy re-encoded without
-- its metadata at the row's object_name and sets cleaned_at (decision 199). Admins see every file and
-- approve them one by one, once cleaned (the table's check); readers with access get, through short-lived signed URLs, only approved
-- files of published reports (not merged away). The rules are here and in the storage policies below,
-- so neither the Data API nor the storage service hands anything else to a non-admin.

-- The reporter reads their own report's files (with their original names); admins all. Readers read
-- public.published_scammer_report_evidence.
drop policy if exists "scammer_report_evidence: reporter or admins" on public.scammer_report_evidence;
create policy "scammer_report_evidence: reporter or admins" on public.scammer_report_evidence
  for select to authenticated
  using (
    (select public.has_role('admin'))
    or exists (select 1 from public.scammer_reports r where r.id = report_id and r.reporter_user_id = (select auth.uid()))
  );

drop policy if exists "scammer_report_evidence: reporter attaches while submitted" on public.scammer_report_evidence;
create policy "scammer_report_evidence: reporter attaches while submitted" on public.scammer_report_evidence
  for insert to authenticated
  with check (exists (
    select 1 from public.scammer_reports r
    where r.id = report_id and r.reporter_user_id = (select auth.uid()) and r.status = 'submitted'
  ));

drop policy if exists "scammer_report_evidence: admins approve" on public.scammer_report_evidence;
create policy "scammer_report_evidence: admins approve" on public.scammer_report_evidence
  for update to authenticated
  using ((select public.has_role('admin')))
  with check ((select public.has_role('admin')));

-- The reporter removes a slot whose upload failed (while the report is submitted); admins remove any.
drop policy if exists "scammer_report_evidence: reporter while submitted or admins delete" on public.scammer_report_evidence;
create policy "scammer_report_evidence: reporter while submitted or admins delete" on public.scammer_report_evidence
  for delete to authenticated
  using (
    (select public.has_role('admin'))
    or exists (
      select 1 from public.scammer_reports r
      where r.id = report_id and r.reporter_user_id = (select auth.uid()) and r.status = 'submitted'
    )
  );

create or replace function private.guard_scammer_report_evidence() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  -- A security definer function: the JWT's role says who called.
  privileged boolean := private.caller_is_privileged();
begin
  if tg_op = 'INSERT' then
    if new.object_name not like new.report_id::text || '/%' then
      raise exception using errcode = 'check_violation', constraint = 'scammer_report_evidence_object_name_format',
        message = 'An evidence file lies in its report''s folder.';
    end if;
    if not privileged and (new.approved_at is not null or new.approved_by is not null) then
      raise exception using errcode = 'insufficient_privilege', message = 'Evidence is approved by the admins.';
    end if;
    -- Only the server, having stored the cleaned copy, says a file is cleaned (decision 199).
    if not privileged then
      new.cleaned_at := null;
    end if;
    -- Up to 5 files a report: the report's row is locked so two uploads cannot both take the fifth.
    perform 1 from public.scammer_reports r where r.id = new.report_id for update;
    if (select count(*) from public.scammer_report_evidence e where e.report_id = new.report_id) >= 5 then
      raise exception using errcode = 'check_violation', constraint = 'scammer_report_evidence_limit',
        message = 'A report can have up to 5 evidence files.';
    end if;
    return new;
  end if;
  -- UPDATE (admins, by the policy): approval only.
  if new.report_id is distinct from old.report_id or new.object_name is distinct from old.object_name
    or new.file_name is distinct from old.file_name or new.content_type is distinct from old.content_type
    or new.created_at is distinct from old.created_at then
    raise exception using errcode = 'insufficient_privilege', message = 'Evidence files are approved or removed, not edited.';
  end if;
  if not privileged then
    new.cleaned_at := old.cleaned_at;
  end if;
  -- A second person (decision 195, 238): the member who filed the report never approves its files,
  -- admins included.
  if not privileged and (new.approved_at is distinct from old.approved_at
      or new.approved_by is distinct from old.approved_by)
    and exists (select 1 from public.scammer_reports r where r.id = new.report_id and r.reporter_user_id = auth.uid()) then
    raise exception using errcode = 'insufficient_privilege', constraint = 'scammer_report_evidence_not_own_review',
      message = 'You filed this report: another admin has to review its evidence.';
  end if;
  if new.approved_at is distinct from old.approved_at and not privileged then
    new.approved_at := case when new.approved_at is null then null else now() end;
    new.approved_by := case when new.approved_at is null then null else auth.uid() end;
  elsif not privileged then
    new.approved_by := old.approved_by;
  end if;
  return new;
end
$$;
revoke all on function private.guard_scammer_report_evidence() from public;

create or replace trigger guard_scammer_report_evidence before insert or update on public.scammer_report_evidence
  for each row execute function private.guard_scammer_report_evidence();
create or replace trigger guard_timestamps before insert on public.scammer_report_evidence
  for each row execute function private.guard_timestamps('created_at');
-- Approvals and removals in the audit log. The server's cleaned_at (decision 199) is not an act of
-- anyone's: not logged (its row image would keep the reporter's file name past their erasure).
create or replace trigger audit after update of approved_at, approved_by or delete on public.scammer_report_evidence
  for each row execute function private.audit_row_change();

-- What readers may have: approved files of reports they may read; no file name, no reporter.
create or replace view public.published_scammer_report_evidence with (security_barrier = true) as
  select e.id, e.report_id, e.object_name, e.content_type, e.approved_at
  from public.scammer_report_evidence e
  where e.approved_at is not null and e.cleaned_at is not null and private.scammer_report_readable(e.report_id);
comment on view public.published_scammer_report_evidence is
  'Approved evidence files of published scammer reports, for members with access (sign them in scammer-evidence).';
revoke all on table public.published_scammer_report_evidence from public, anon, authenticated, service_role;
grant select on table public.published_scammer_report_evidence to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- The bucket's policies (storage.objects). No update policy: files are never replaced. No insert policy
-- either: the evidence-upload function writes the cleaned copy as the service (decision 199), after
-- checking the slot as the reporter with private.scammer_evidence_slot_open.
-- ---------------------------------------------------------------------------------------------------

-- Whether the caller may upload this object: its slot exists, on their own report, still submitted.
create or replace function private.scammer_evidence_slot_open(object_name text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.scammer_report_evidence e
    join public.scammer_reports r on r.id = e.report_id
    where e.object_name = scammer_evidence_slot_open.object_name
      and r.reporter_user_id = (select auth.uid()) and r.status = 'submitted'
  )
$$;
revoke all on function private.scammer_evidence_slot_open(text) from public;
grant execute on function private.scammer_evidence_slot_open(text) to authenticated, service_role;

-- Whether the caller may read (and sign) this object: an admin; the reporter of its report; a reader
-- with access once the file is approved and the report published.
create or replace function private.scammer_evidence_readable(object_name text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select public.has_role('admin') or exists (
    select 1 from public.scammer_report_evidence e
    join public.scammer_reports r on r.id = e.report_id
    where e.object_name = scammer_evidence_readable.object_name
      and (
        r.reporter_user_id = (select auth.uid())
        or (e.approved_at is not null and e.cleaned_at is not null and private.scammer_report_readable(r.id))
      )
  )
$$;
revoke all on function private.scammer_evidence_readable(text) from public;
grant execute on function private.scammer_evidence_readable(text) to authenticated, service_role;

drop policy if exists "scammer-evidence: admins, the reporter, readers of approved files" on storage.objects;
create policy "scammer-evidence: admins, the reporter, readers of approved files" on storage.objects
  for select to authenticated
  using (bucket_id = 'scammer-evidence' and private.scammer_evidence_readable(name));

drop policy if exists "scammer-evidence: admins delete" on storage.objects;
create policy "scammer-evidence: admins delete" on storage.objects
  for delete to authenticated
  using (bucket_id = 'scammer-evidence' and (select public.has_role('admin')));
