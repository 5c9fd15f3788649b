-- A fair process for the people a report names, and corrections readers can see (issue 32 parts 3
-- and 4, decisions 201–203). Tables: migrations/20261128620000_reports_fair_process.sql.

-- ---------------------------------------------------------------------------------------------------
-- Corrections (decision 201): every change to what readers see of a report once it has been published
-- — summary, masking, evidence — is recorded with its kind and time. A report counts as published
-- once while it is published, and while it is back in review after a withdrawal (what changes then
-- shows when it is republished). Other triggers (span masks, evidence re-encoding) call this too.
create or replace function private.record_scammer_report_change(report uuid, kind text) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if exists (
    select 1 from public.scammer_reports r
    where r.id = record_scammer_report_change.report and (r.status = 'published' or r.withdrawn_at is not null)
  ) then
    insert into private.scammer_report_changes (report_id, kind)
    values (record_scammer_report_change.report, record_scammer_report_change.kind);
  end if;
end
$$;
revoke all on function private.record_scammer_report_change(uuid, text) from public;

-- The summary and the whole-field masking, on the report itself.
create or replace function private.scammer_report_public_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if old.status <> 'published' and old.withdrawn_at is null then
    return null;
  end if;
  if new.public_summary is distinct from old.public_summary then
    insert into private.scammer_report_changes (report_id, kind) values (new.id, 'summary');
  end if;
  if new.redacted_fields is distinct from old.redacted_fields then
    insert into private.scammer_report_changes (report_id, kind) values (new.id, 'masking');
  end if;
  return null;
end
$$;
revoke all on function private.scammer_report_public_changed() from public;

create or replace trigger scammer_report_public_changed after update on public.scammer_reports
  for each row execute function private.scammer_report_public_changed();

-- Evidence readers receive: a file approved, withdrawn from approval, replaced or deleted once approved.
create or replace function private.scammer_report_evidence_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    if old.approved_at is not null then
      perform private.record_scammer_report_change(old.report_id, 'evidence');
    end if;
    return null;
  end if;
  if (new.approved_at is null) is distinct from (old.approved_at is null)
    or (new.approved_at is not null and new.object_name is distinct from old.object_name) then
    perform private.record_scammer_report_change(new.report_id, 'evidence');
  end if;
  return null;
end
$$;
revoke all on function private.scammer_report_evidence_changed() from public;

create or replace trigger scammer_report_evidence_changed after update or delete on public.scammer_report_evidence
  for each row execute function private.scammer_report_evidence_changed();

-- Span masks (decision 197): a span masked, unmasked or removed changes what readers receive.
create or replace function private.scammer_report_masks_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    perform private.record_scammer_report_change(old.report_id, 'masking');
  elsif tg_op = 'INSERT' or new.state is distinct from old.state then
    perform private.record_scammer_report_change(new.report_id, 'masking');
  end if;
  return null;
end
$$;
revoke all on function private.scammer_report_masks_changed() from public;

create or replace trigger scammer_report_masks_changed after insert or update or delete on public.scammer_report_masks
  for each row execute function private.scammer_report_masks_changed();

-- What readers see: the kinds of change and when, for reports they may read.
create or replace view public.scammer_report_updates with (security_barrier = true) as
  select c.report_id, c.kind, c.changed_at
  from private.scammer_report_changes c
  where private.scammer_report_readable(c.report_id);
comment on view public.scammer_report_updates is
  'Changes to published scammer reports readers can see (summary, masking, evidence) and when; never the text.';
revoke all on table public.scammer_report_updates from public, anon, authenticated, service_role;
grant select on table public.scammer_report_updates to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- Withdrawal (decision 202): taking a published report down stamps withdrawn_at; nobody writes it by
-- hand (the server's own roles excepted, for seeding).
create or replace function private.stamp_scammer_report_withdrawal() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if private.caller_is_privileged() and tg_op = 'INSERT' then
    return new;
  end if;
  if tg_op = 'INSERT' then
    new.withdrawn_at := null;
  elsif old.status = 'published' and new.status <> 'published' then
    new.withdrawn_at := now();
  elsif not private.caller_is_privileged() then
    new.withdrawn_at := old.withdrawn_at;
  end if;
  return new;
end
$$;
revoke all on function private.stamp_scammer_report_withdrawal() from public;

create or replace trigger stamp_scammer_report_withdrawal before insert or update on public.scammer_reports
  for each row execute function private.stamp_scammer_report_withdrawal();

-- The notice left in a withdrawn report's place, for readers who had it open or linked: its date only.
-- A published report deleted outright leaves the same notice (decision 239).
create or replace view public.withdrawn_scammer_reports with (security_barrier = true) as
  select r.id, r.withdrawn_at
  from public.scammer_reports r
  where r.status <> 'published' and r.withdrawn_at is not null and r.merged_into is null
    and ((select public.has_scammer_access()) or private.brands_is_representative(r.brand_id))
  union all
  select d.report_id, d.removed_at
  from private.scammer_report_removals d
  where (select public.has_scammer_access()) or private.brands_is_representative(d.brand_id);
comment on view public.withdrawn_scammer_reports is
  'Reports taken down after publication, with the date: the notice readers see in their place. Never their content.';
revoke all on table public.withdrawn_scammer_reports from public, anon, authenticated, service_role;
grant select on table public.withdrawn_scammer_reports to authenticated, service_role;

-- Deleting a report that readers have read (published, or withdrawn from publication) keeps its notice:
-- the id, the brand and the date it left readers (decision 239). A merged duplicate was never a page
-- of its own to readers.
create or replace function private.scammer_report_removal_notice() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if (old.status = 'published' or old.withdrawn_at is not null) and old.merged_into is null then
    insert into private.scammer_report_removals (report_id, brand_id, removed_at)
    values (old.id, old.brand_id, case when old.status = 'published' then now() else old.withdrawn_at end)
    on conflict (report_id) do nothing;
  end if;
  return old;
end
$$;
revoke all on function private.scammer_report_removal_notice() from public;

create or replace trigger scammer_report_removal_notice before delete on public.scammer_reports
  for each row execute function private.scammer_report_removal_notice();

-- ---------------------------------------------------------------------------------------------------
-- Reply senders hear every outcome (decision 201's part 3): the decision on what they sent
-- (reports_read_replies.sql), then, after an accepted takedown request, whether the report was
-- republished or stays down, and, for anyone with a request on it, that the report was deleted.
create or replace function private.scammer_report_outcome_for_senders() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  sender record;
  kind text;
  title text;
  message text;
  -- The name as the senders read it on the reply page: masked spans replaced (decision 209).
  named text;
begin
  if tg_op = 'DELETE' then
    named := private.scammer_report_masked_text(old.id, 'scammer_name', old.scammer_name,
      private.scammer_report_mask_placeholder());
    kind := 'scammer_reply.report_deleted';
    title := 'A report you wrote about was deleted';
    message := format('After review, the report on %s was deleted: readers no longer see it.', named);
    for sender in
      select distinct x.user_id, u.email from public.scammer_report_replies x
      join auth.users u on u.id = x.user_id
      where x.report_id = old.id and (x.status = 'pending' or (x.status = 'accepted' and x.kind = 'takedown'))
    loop
      perform private.notify(sender.user_id, kind, title, message, '/scammer-database');
      perform private.queue_mail(sender.email, 'scammer_reply_decision', title,
        format(E'Hello,\n\n%s', message), '/scammer-database');
    end loop;
    return old;
  end if;
  if new.status is not distinct from old.status or old.status <> 'under_review'
    or new.status not in ('published', 'rejected') or new.withdrawn_at is null then
    return null;
  end if;
  named := private.scammer_report_masked_text(new.id, 'scammer_name', new.scammer_name,
    private.scammer_report_mask_placeholder());
  if new.status = 'published' then
    kind := 'scammer_reply.republished';
    title := 'The report you asked us to take down is published again';
    message := format('We reviewed the report on %s again and republished it. You can still send a reply or a correction.',
      named);
  else
    kind := 'scammer_reply.kept_down';
    title := 'The report you asked us to take down stays down';
    message := format('We reviewed the report on %s again and did not republish it.', named);
  end if;
  for sender in
    select distinct x.user_id, u.email from public.scammer_report_replies x
    join auth.users u on u.id = x.user_id
    where x.report_id = new.id and x.kind = 'takedown' and x.status = 'accepted' and x.decided_at >= new.withdrawn_at
  loop
    perform private.notify(sender.user_id, kind, title, message, '/scammer-database/' || new.id || '/reply');
    perform private.queue_mail(sender.email, 'scammer_reply_decision', title,
      format(E'Hello,\n\n%s', message), '/scammer-database/' || new.id || '/reply');
  end loop;
  return null;
end
$$;
revoke all on function private.scammer_report_outcome_for_senders() from public;

create or replace trigger scammer_report_outcome_for_senders after update on public.scammer_reports
  for each row execute function private.scammer_report_outcome_for_senders();
-- Before the delete: the requests go with the report (on delete cascade).
create or replace trigger scammer_report_deleted_for_senders before delete on public.scammer_reports
  for each row execute function private.scammer_report_outcome_for_senders();

-- ---------------------------------------------------------------------------------------------------
-- The reply page shows the report being answered, as readers see it (decision 201), to whoever may
-- read it (access, or an approved representative of its brand) and to anyone who has sent a request
-- about it. Nobody else: the report's content is what the Scammer Network's readers pay for.
create or replace function public.scammer_report_for_reply(report_id uuid) returns setof public.published_scammer_reports
language sql stable security definer set search_path = ''
as $$
  select p.id, p.scammer_name, p.scammer_description, p.incident_details, p.location, p.business_name,
    p.contact_info, p.amount_scammed, p.date_of_incident, p.public_summary, p.redacted_fields, p.brand_id,
    p.reported_at, p.reviewed_at
  from private.scammer_reports_public p
  where p.id = scammer_report_for_reply.report_id and (select auth.uid()) is not null and (
    public.has_scammer_access()
    or private.brands_is_representative(p.brand_id)
    or exists (
      select 1 from public.scammer_report_replies x
      where x.report_id = p.id and x.user_id = (select auth.uid())
    )
  )
$$;
revoke all on function public.scammer_report_for_reply(uuid) from public;
grant execute on function public.scammer_report_for_reply(uuid) to authenticated, service_role;
comment on function public.scammer_report_for_reply(uuid) is
  'The published report a reply answers, as readers see it: for readers, the brand''s representatives and senders of a request about it.';
