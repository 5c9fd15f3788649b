-- Watch alerts (issue 19, product §scammer-database, decision 125).

drop policy if exists "scammer_watches: read own" on public.scammer_watches;
create policy "scammer_watches: read own" on public.scammer_watches
  for select to authenticated
  using (user_id = (select auth.uid()));

drop policy if exists "scammer_watches: members with access watch as themselves" on public.scammer_watches;
create policy "scammer_watches: members with access watch as themselves" on public.scammer_watches
  for insert to authenticated
  with check (user_id = (select auth.uid()) and (select public.has_scammer_access()));

drop policy if exists "scammer_watches: remove own" on public.scammer_watches;
create policy "scammer_watches: remove own" on public.scammer_watches
  for delete to authenticated
  using (user_id = (select auth.uid()));

-- Names and businesses compared lower-cased with single spaces; contact details by decision 124's rules.
create or replace function private.guard_scammer_watch() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  new.value := btrim(new.value);
  new.normalised := case new.kind
    when 'phone' then private.normalise_phone(new.value)
    when 'email' then private.normalise_email(new.value)
    when 'domain' then private.normalise_domain(new.value)
    else lower(regexp_replace(new.value, '\s+', ' ', 'g'))
  end;
  if new.normalised is null then
    raise exception using errcode = 'check_violation', constraint = 'scammer_watches_value_format',
      message = case new.kind
        when 'phone' then 'Enter a phone number with its area code (and its country code outside the US and Canada).'
        when 'email' then 'Enter an email address.'
        else 'Enter a website address such as example.com.'
      end;
  end if;
  if not private.caller_is_privileged()
    and (select count(*) from public.scammer_watches w where w.user_id = new.user_id) >= 20 then
    raise exception using errcode = 'check_violation', constraint = 'scammer_watches_limit',
      message = 'You can watch up to 20 names, businesses and contact details.';
  end if;
  return new;
end
$$;
revoke all on function private.guard_scammer_watch() from public;

create or replace trigger guard_scammer_watch before insert on public.scammer_watches
  for each row execute function private.guard_scammer_watch();
create or replace trigger guard_timestamps before insert on public.scammer_watches
  for each row execute function private.guard_timestamps('created_at');

-- The watchers alerted about a report that leaves readers (taken down, or deleted while published:
-- decisions 203, 239) are told, once.
create or replace function private.scammer_report_tell_watchers_withdrawn(report uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  watch record;
begin
  for watch in
    update private.scammer_watch_alerts a set withdrawal_told_at = now()
    from auth.users u
    where a.report_id = scammer_report_tell_watchers_withdrawn.report and a.withdrawal_told_at is null
      and u.id = a.user_id
    returning a.user_id, u.email
  loop
    perform private.notify(watch.user_id, 'scammer_watch.withdrawn', 'A report you were alerted to was withdrawn',
      'A report that matched your watch was withdrawn after review: readers no longer see its content.',
      '/scammer-database/' || report);
    perform private.queue_mail(watch.email, 'scammer_watch_alert', 'A report you were alerted to was withdrawn',
      E'Hello,\n\nA report that matched your watch was withdrawn after review: readers no longer see its content.',
      '/scammer-database/' || report);
  end loop;
end
$$;
revoke all on function private.scammer_report_tell_watchers_withdrawn(uuid) from public;

-- When a report is published: every watcher with access whose watch matches what readers see of it
-- (never a redacted field) is told, once per report, in the bell and by mail — once ever: a report
-- republished after a withdrawal alerts nobody who was alerted before (decision 203). When a published
-- report is taken down, the watchers alerted about it are told, once.
create or replace function private.scammer_report_watch_alerts() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  watch record;
  contact_hidden boolean := 'contact_info' = any(new.redacted_fields);
  -- As readers see them: masked spans cut out (decisions 197, 209). Contact details match by the
  -- identifiers, which come from the masked text (reports_identifiers.sql).
  name text := lower(private.scammer_report_masked_text(new.id, 'scammer_name', new.scammer_name, ' '));
  business text := case when 'business_name' = any(new.redacted_fields) then null
    else lower(private.scammer_report_masked_text(new.id, 'business_name', new.business_name, ' ')) end;
  labels jsonb := '{"name":"the name","business":"the business","phone":"the phone number","email":"the email address","domain":"the website"}';
begin
  if old.status = 'published' and new.status is distinct from 'published' then
    perform private.scammer_report_tell_watchers_withdrawn(new.id);
    return null;
  end if;
  if new.status is distinct from 'published' or old.status = 'published' then
    return null;
  end if;
  for watch in
    select distinct on (w.user_id) w.user_id, w.kind, w.value, u.email
    from public.scammer_watches w
    join auth.users u on u.id = w.user_id
    where (
        (w.kind = 'name' and extensions.word_similarity(w.normalised, name) >= 0.6)
        or (w.kind = 'business' and business is not null and extensions.word_similarity(w.normalised, business) >= 0.6)
        or (w.kind in ('phone', 'email', 'domain') and not contact_hidden and exists (
          select 1 from private.scammer_report_identifiers i
          where i.report_id = new.id and i.kind = w.kind and i.value = w.normalised))
      )
      and (
        exists (select 1 from public.user_roles r where r.user_id = w.user_id and r.role = 'admin')
        or exists (select 1 from public.scammer_subscriptions s
                   where s.user_id = w.user_id and s.status in ('active', 'cancelled') and s.expires_at > now())
        or exists (select 1 from public.profiles p where p.user_id = w.user_id and p.trial_ends_at > now())
      )
      and not exists (select 1 from private.scammer_watch_alerts a where a.report_id = new.id and a.user_id = w.user_id)
    order by w.user_id, w.created_at
  loop
    insert into private.scammer_watch_alerts (report_id, user_id) values (new.id, watch.user_id)
    on conflict do nothing;
    perform private.notify(watch.user_id, 'scammer_watch.match', 'A new report matches your watch',
      format('A report just published in the Scammer Network matches %s you watch: %s.',
        labels ->> watch.kind, watch.value),
      '/scammer-database/' || new.id);
    perform private.queue_mail(watch.email, 'scammer_watch_alert', 'A new report matches your watch',
      format(E'Hello,\n\nA report just published in the Scammer Network matches %s you watch: %s.',
        labels ->> watch.kind, watch.value),
      '/scammer-database/' || new.id);
  end loop;
  return null;
end
$$;
revoke all on function private.scammer_report_watch_alerts() from public;

create or replace trigger scammer_report_watch_alerts after update on public.scammer_reports
  for each row execute function private.scammer_report_watch_alerts();

-- Deleted while published (decision 239): told as for a withdrawal, before the alerts go with the
-- report (on delete cascade).
create or replace function private.scammer_report_watch_deleted() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if old.status = 'published' then
    perform private.scammer_report_tell_watchers_withdrawn(old.id);
  end if;
  return old;
end
$$;
revoke all on function private.scammer_report_watch_deleted() from public;

create or replace trigger scammer_report_watch_deleted before delete on public.scammer_reports
  for each row execute function private.scammer_report_watch_deleted();
