-- Right of reply and corrections (issue 19, product §scammer-database, decision 126). Anyone named in a
-- published report — a signed-in member — sends a reply, a correction or a takedown request about it.
-- Admins accept or decline each with a note; every decision is audited and the sender is told (bell and
-- mail). Accepted replies and corrections are shown under the report to its readers; an accepted
-- takedown request takes the report down for review. Removal is never offered for payment.

-- Senders read their own requests; admins all. Readers read accepted ones through the view below.
drop policy if exists "scammer_report_replies: own or admins" on public.scammer_report_replies;
create policy "scammer_report_replies: own or admins" on public.scammer_report_replies
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')));

drop policy if exists "scammer_report_replies: members send as themselves" on public.scammer_report_replies;
create policy "scammer_report_replies: members send as themselves" on public.scammer_report_replies
  for insert to authenticated
  with check (user_id = (select auth.uid()));

drop policy if exists "scammer_report_replies: admins decide" on public.scammer_report_replies;
create policy "scammer_report_replies: admins decide" on public.scammer_report_replies
  for update to authenticated
  using ((select public.has_role('admin')))
  with check ((select public.has_role('admin')));

drop policy if exists "scammer_report_replies: admins delete" on public.scammer_report_replies;
create policy "scammer_report_replies: admins delete" on public.scammer_report_replies
  for delete to authenticated
  using ((select public.has_role('admin')));

create or replace function private.guard_scammer_report_reply() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  -- A security definer function: the JWT's role says who called.
  privileged boolean := private.caller_is_privileged();
  admin boolean := public.has_role('admin');
  report record;
begin
  if tg_op = 'INSERT' then
    new.body := btrim(new.body);
    if privileged then
      return new;
    end if;
    if new.status is distinct from 'pending' or new.decision_note is not null or new.decided_by is not null
      or new.decided_at is not null then
      raise exception using errcode = 'insufficient_privilege',
        message = 'A reply is sent for review: its decision is made by the admins.';
    end if;
    select r.status, r.merged_into, r.reporter_user_id into report
    from public.scammer_reports r where r.id = new.report_id;
    -- The same answer for a report that does not exist and one that is not published: no probing.
    if not found or report.status <> 'published' or report.merged_into is not null then
      raise exception using errcode = 'check_violation', constraint = 'scammer_report_replies_published',
        message = 'This report is not published: replies can be sent only about a published report.';
    end if;
    if report.reporter_user_id = new.user_id then
      raise exception using errcode = 'check_violation', constraint = 'scammer_report_replies_not_reporter',
        message = 'You reported this: replies are for the people and businesses named in a report.';
    end if;
    -- One request waiting per sender and report; then 3 a day per account, 10 per client address.
    perform 1 from public.scammer_report_replies x
    where x.report_id = new.report_id and x.user_id = new.user_id and x.status = 'pending';
    if found then
      raise exception using errcode = 'check_violation', constraint = 'scammer_report_replies_one_pending',
        message = 'You already have a request waiting for review on this report.';
    end if;
    perform private.enforce_insert_rate('insert:scammer_report_replies', 3, 10, interval '1 day');
    return new;
  end if;

  -- UPDATE: admins (the update policy) and the server's roles decide; the sender's words stay theirs.
  if not privileged and not admin then
    raise exception using errcode = 'insufficient_privilege', message = 'Only admins review replies.';
  end if;
  if new.report_id is distinct from old.report_id or new.user_id is distinct from old.user_id
    or new.kind is distinct from old.kind or new.relation is distinct from old.relation
    or new.body is distinct from old.body or new.created_at is distinct from old.created_at then
    raise exception using errcode = 'insufficient_privilege',
      message = 'A reply is the sender''s: accept or decline it, with a note.';
  end if;
  -- A second person (decision 195, 238): the member who filed the report never decides the replies
  -- about it, admins included.
  if not privileged and (new.status is distinct from old.status or new.decision_note is distinct from old.decision_note)
    and exists (select 1 from public.scammer_reports r where r.id = new.report_id and r.reporter_user_id = auth.uid()) then
    raise exception using errcode = 'insufficient_privilege', constraint = 'scammer_report_replies_not_own_review',
      message = 'You filed this report: another admin has to decide the replies about it.';
  end if;
  if new.status is distinct from old.status then
    if (old.status, new.status) not in (('pending', 'accepted'), ('pending', 'declined'), ('accepted', 'declined')) then
      raise exception using errcode = 'check_violation', constraint = 'scammer_report_replies_status_flow',
        message = format('A %s reply cannot be marked %s.', old.status, new.status);
    end if;
    if new.status = 'declined' and new.decision_note is null then
      raise exception using errcode = 'check_violation', constraint = 'scammer_report_replies_declined_with_note',
        message = 'Declining needs a note: the sender is told why.';
    end if;
    new.decided_by := auth.uid();
    new.decided_at := now();
  elsif not privileged then
    new.decided_by := old.decided_by;
    new.decided_at := old.decided_at;
  end if;
  return new;
end
$$;
revoke all on function private.guard_scammer_report_reply() from public;

create or replace trigger guard_scammer_report_reply before insert or update on public.scammer_report_replies
  for each row execute function private.guard_scammer_report_reply();
create or replace trigger guard_timestamps before insert on public.scammer_report_replies
  for each row execute function private.guard_timestamps('created_at');
-- Every request and every decision in the audit log.
create or replace trigger audit after insert or update or delete on public.scammer_report_replies
  for each row execute function private.audit_row_change();

-- The sender hears about the decision (bell and mail); an accepted takedown request takes the report
-- down for review (the reporter is told by the report's own trigger).
create or replace function private.scammer_report_reply_decided() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  title text;
  message text;
  sender_email text;
  what text := case new.kind when 'reply' then 'reply' when 'correction' then 'correction' else 'takedown request' end;
begin
  if new.status is not distinct from old.status then
    return null;
  end if;
  if new.status = 'accepted' and new.kind = 'takedown' then
    update public.scammer_reports set status = 'under_review'
    where id = new.report_id and status = 'published';
  end if;
  title := case new.status when 'accepted' then format('Your %s was accepted', what)
    else format('Your %s was declined', what) end;
  message := case
    when new.status = 'accepted' and new.kind = 'takedown' then
      'We took the report down while it is reviewed again.'
    when new.status = 'accepted' then
      format('Your %s is now shown under the report to its readers.', what)
    else format('We reviewed your %s and did not accept it.', what)
  end || coalesce(' Note from the reviewer: ' || new.decision_note, '');
  perform private.notify(new.user_id, 'scammer_reply.' || new.status, title, message,
    '/scammer-database/' || new.report_id || '/reply');
  select u.email into sender_email from auth.users u where u.id = new.user_id;
  if sender_email is not null then
    perform private.queue_mail(sender_email, 'scammer_reply_decision', title,
      format(E'Hello,\n\n%s', message), '/scammer-database/' || new.report_id || '/reply');
  end if;
  return null;
end
$$;
revoke all on function private.scammer_report_reply_decided() from public;

create or replace trigger scammer_report_reply_decided after update on public.scammer_report_replies
  for each row execute function private.scammer_report_reply_decided();

-- What readers see under a report: accepted replies and corrections, never who sent them.
create or replace view public.published_scammer_report_replies with (security_barrier = true) as
  select x.id, x.report_id, x.kind, x.relation, x.body, x.decided_at as published_at
  from public.scammer_report_replies x
  where x.status = 'accepted' and x.kind in ('reply', 'correction')
    and private.scammer_report_readable(x.report_id);
comment on view public.published_scammer_report_replies is
  'Accepted replies and corrections under published scammer reports, for members with access: no sender.';
revoke all on table public.published_scammer_report_replies from public, anon, authenticated, service_role;
grant select on table public.published_scammer_report_replies to authenticated, service_role;
