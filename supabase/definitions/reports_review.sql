-- Scammer Network review (issue 19, product §scammer-database, decision 123): reports arrive as
-- 'submitted'; only admins move them, along submitted → under_review → published | rejected (and a
-- published report back to under_review, to take it down). Claiming sets the reviewing admin; a
-- rejection carries a reason the reporter sees. Every change an admin makes is audited, and every
-- status change notifies the reporter (bell and mail).
-- guard_scammer_report is redefined here (decision 089): first created in
-- 20261121100600_scammer_reports_and_bookings.sql.

-- Reporters read their own reports (with status and rejection reason), admins all of them. Readers with
-- access never read this table: they read public.published_scammer_reports (reports_read.sql), which
-- leaves out the reporter and every redacted field.
drop policy if exists "scammer_reports: own, published with access, admins all" on public.scammer_reports;
drop policy if exists "scammer_reports: own or admins" on public.scammer_reports;
create policy "scammer_reports: own or admins" on public.scammer_reports
  for select to authenticated
  using (reporter_user_id = (select auth.uid()) or (select public.has_role('admin')));

create or replace function private.guard_scammer_report() returns trigger
language plpgsql set search_path = ''
as $$
declare
  privileged boolean := private.is_privileged();
  -- The server's own roles, also seen inside a security-definer function (there current_user is its
  -- owner, and the request's role claim tells who called).
  caller_privileged boolean := private.is_privileged() and private.caller_is_privileged();
  admin boolean := public.has_role('admin');
begin
  -- For every writer: an incident cannot lie in the future. One day of slack for time zones ahead of
  -- UTC (the browser checks against the reporter's local date).
  if new.date_of_incident is not null
    and (tg_op = 'INSERT' or new.date_of_incident is distinct from old.date_of_incident)
    and new.date_of_incident > (now() at time zone 'utc')::date + 1 then
    raise exception using errcode = 'check_violation', constraint = 'scammer_reports_date_of_incident_not_future',
      message = 'Incident date cannot be in the future.';
  end if;
  if tg_op = 'INSERT' then
    -- The server's own roles (seeding, migrations, jobs) write reports as they are. Everyone signed in,
    -- admins included and also through a security-definer function they call (decision 195), submits
    -- a report for review: it starts as 'submitted' with no review fields.
    if caller_privileged then
      return new;
    end if;
    if new.status is distinct from 'submitted' then
      raise exception using errcode = 'insufficient_privilege',
        message = 'reports are submitted for review: scammer_reports.status is set by the reviewers';
    end if;
    -- What the reviewers write is theirs alone.
    if new.claimed_by is not null or new.claimed_at is not null or new.public_summary is not null
      or new.redacted_fields <> '{}' or new.rejection_reason is not null or new.reviewed_at is not null
      or new.status_changed_at is not null or new.brand_id is not null or new.merged_into is not null then
      raise exception using errcode = 'insufficient_privilege',
        message = 'a report is submitted as written: review fields are set by the reviewers';
    end if;
    -- §9: 3 reports per 15 minutes per user, 10 per client address (not for admins).
    if admin then
      return new;
    end if;
    perform private.enforce_insert_rate('insert:scammer_reports', 3, 10, interval '15 minutes');
    return new;
  end if;

  -- UPDATE: only admins (the update policy) and the server's roles get here.
  if not privileged and not admin then
    raise exception using errcode = 'insufficient_privilege', message = 'Only admins review reports.';
  end if;
  -- The reporter's words stay theirs: readers see them as written, less what is redacted.
  if not privileged and (
    new.scammer_name is distinct from old.scammer_name
    or new.scammer_description is distinct from old.scammer_description
    or new.incident_details is distinct from old.incident_details
    or new.location is distinct from old.location
    or new.business_name is distinct from old.business_name
    or new.contact_info is distinct from old.contact_info
    or new.amount_scammed is distinct from old.amount_scammed
    or new.date_of_incident is distinct from old.date_of_incident
  ) then
    raise exception using errcode = 'insufficient_privilege',
      message = 'The report is the reporter''s: redact fields or write a public summary instead of editing it.';
  end if;
  -- A second person (decision 195): the member who filed a report never reviews it — no claim,
  -- summary, redaction, brand link, merge, publication or rejection — admins included, through the
  -- data API, SQL or a function they call. Taking their own published report down (back to review)
  -- stays possible: it shows readers less, never more. The server's roles are not members.
  if not caller_privileged and old.reporter_user_id = auth.uid() and (
    new.status is distinct from old.status and not (old.status = 'published' and new.status = 'under_review')
    or new.claimed_by is distinct from old.claimed_by
    or new.public_summary is distinct from old.public_summary
    or new.redacted_fields is distinct from old.redacted_fields
    or new.rejection_reason is distinct from old.rejection_reason
    or new.merged_into is distinct from old.merged_into
    or (new.brand_id is distinct from old.brand_id and not privileged)
  ) then
    raise exception using errcode = 'insufficient_privilege', constraint = 'scammer_reports_not_own_review',
      message = 'You filed this report: another admin has to review, redact and publish it.';
  end if;
  -- A deliberate act (decision 195): a published report carries the reviewers' summary, so readers
  -- see what the reviewers checked. Required when publishing and while published.
  if not caller_privileged and new.status = 'published' and old.status in ('under_review', 'published')
    and (old.status = 'under_review' or new.public_summary is distinct from old.public_summary)
    and coalesce(private.trimmed_length(new.public_summary), 0) = 0 then
    raise exception using errcode = 'check_violation', constraint = 'scammer_reports_published_with_summary',
      column = 'public_summary',
      message = 'Write the reviewers'' summary before publishing: readers see it above the report.';
  end if;
  if new.status is distinct from old.status then
    if (old.status, new.status) not in (
      ('submitted', 'under_review'), ('under_review', 'published'), ('under_review', 'rejected'),
      ('under_review', 'submitted'), ('published', 'under_review')
    ) then
      raise exception using errcode = 'check_violation', constraint = 'scammer_reports_status_flow',
        message = format('A %s report cannot be marked %s.', replace(old.status, '_', ' '), replace(new.status, '_', ' ')),
        hint = 'Reports go from submitted to under review (claimed), then to published or rejected.';
    end if;
    new.status_changed_at := now();
    if new.status = 'under_review' and old.status = 'submitted' and new.claimed_by is null then
      new.claimed_by := auth.uid();
    end if;
    if new.status = 'submitted' then
      new.claimed_by := null;
    end if;
    if new.status in ('published', 'rejected') then
      new.reviewed_at := now();
    end if;
    if new.status = 'published' then
      new.rejection_reason := null;
    end if;
    if new.status = 'rejected' and new.rejection_reason is null then
      raise exception using errcode = 'check_violation', constraint = 'scammer_reports_rejected_with_reason',
        message = 'A rejection needs a reason: the reporter is told why.';
    end if;
  elsif not privileged then
    new.status_changed_at := old.status_changed_at;
    new.reviewed_at := old.reviewed_at;
  end if;
  -- Merging a duplicate (decision 142): into another report that is published and not merged itself,
  -- and only a report nothing is merged into (no chains readers would have to follow).
  if new.merged_into is not null and new.merged_into is distinct from old.merged_into then
    if not exists (
      select 1 from public.scammer_reports t
      where t.id = new.merged_into and t.status = 'published' and t.merged_into is null
    ) then
      raise exception using errcode = 'check_violation', constraint = 'scammer_reports_merge_target',
        message = 'A report can be merged only into a published report that is not merged itself.';
    end if;
    if exists (select 1 from public.scammer_reports d where d.merged_into = new.id) then
      raise exception using errcode = 'check_violation', constraint = 'scammer_reports_merge_target',
        message = 'Other reports are merged into this one: it cannot be merged into another.';
    end if;
  end if;
  if new.claimed_by is distinct from old.claimed_by then
    -- An admin claims a report for themselves (or releases it), never for someone else.
    if not privileged and new.claimed_by is not null and new.claimed_by is distinct from auth.uid() then
      raise exception using errcode = 'insufficient_privilege', message = 'You can only claim a report for yourself.';
    end if;
    new.claimed_at := case when new.claimed_by is null then null else now() end;
  elsif not privileged then
    new.claimed_at := old.claimed_at;
  end if;
  return new;
end
$$;
revoke all on function private.guard_scammer_report() from public;

create or replace trigger guard_scammer_report before insert or update on public.scammer_reports
  for each row execute function private.guard_scammer_report();

-- Every admin step (claim, summary, redaction, brand, publish, reject, delete) in the audit log.
create or replace trigger audit after update or delete on public.scammer_reports
  for each row execute function private.audit_row_change();

-- The reporter hears about each status change in the bell and by mail (issue 19).
create or replace function private.scammer_report_status_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  title text;
  message text;
  reporter_email text;
  kind text := 'scammer_report.' || new.status;
  about text := format('your report on %s', new.scammer_name);
begin
  if new.merged_into is not null and new.merged_into is distinct from old.merged_into then
    kind := 'scammer_report.merged';
    title := 'Your scammer report was merged';
    message := format('We merged %s with another report on the same scammer: readers find them as one report.', about);
  elsif new.status is not distinct from old.status then
    return null;
  else
    case
    when new.status = 'under_review' and old.status = 'submitted' then
      title := 'Your scammer report is under review';
      message := format('An admin has started reviewing %s.', about);
    when new.status = 'under_review' and old.status = 'published' then
      title := 'Your scammer report is back under review';
      message := format('We took down %s while it is reviewed again.', about);
    when new.status = 'published' then
      title := 'Your scammer report was published';
      message := format('We reviewed and published %s in the Scammer Network. Thank you for helping protect the community.', about);
    when new.status = 'rejected' then
      title := 'Your scammer report was not published';
      message := format('We reviewed %s and did not publish it. Reason: %s', about, new.rejection_reason);
    when new.status = 'submitted' then
      title := 'Your scammer report is waiting for review';
      message := format('%s is back in the review queue.', initcap(left(about, 1)) || substr(about, 2));
    else
      return null;
  end case;
  end if;
  perform private.notify(new.reporter_user_id, kind, title, message, '/scammer-database#my-reports');
  select u.email into reporter_email from auth.users u where u.id = new.reporter_user_id;
  if reporter_email is not null then
    perform private.queue_mail(reporter_email, 'scammer_report_status', title,
      format(E'Hello,\n\n%s', message), '/scammer-database#my-reports');
  end if;
  return null;
end
$$;
revoke all on function private.scammer_report_status_changed() from public;

create or replace trigger scammer_report_status_changed after update on public.scammer_reports
  for each row execute function private.scammer_report_status_changed();
