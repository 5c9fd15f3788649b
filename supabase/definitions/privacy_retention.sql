-- What the privacy policy promises about time (issue 33, decisions 192 and 194), run by the server's
-- daily leased jobs (server/functions/jobs.ts): inactive accounts are warned and then erased, security
-- logs leave after 12 months.

-- A member's last activity: signing in, or using a session (every token refresh touches it), or — for
-- an account never used — its creation.
create or replace function private.member_last_active(p_user_id uuid) returns timestamptz
language sql stable security definer set search_path = ''
as $$
  select greatest(u.created_at, u.last_sign_in_at,
    (select max(s.updated_at) from auth.sessions s where s.user_id = u.id))
  from auth.users u where u.id = p_user_id
$$;
revoke all on function private.member_last_active(uuid) from public;

-- Members who asked for it (privacy setting "Delete my account when inactive") and have been inactive
-- for their chosen period less 14 days are told, by a notification and a mail, once per stretch of
-- inactivity. Warnings of members who came back (or switched the setting off) are forgotten. Returns
-- how many were warned.
create or replace function private.inactivity_warn() returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  due record;
  warned integer := 0;
  on_date text;
begin
  delete from private.inactivity_warnings w
  where not exists (
      select 1 from public.privacy_settings s where s.user_id = w.user_id and s.auto_delete_inactive)
    or private.member_last_active(w.user_id) > w.last_active_at;

  for due in
    select u.id, u.email, s.inactive_period_months, a.last_active
    from public.privacy_settings s
    join auth.users u on u.id = s.user_id
    cross join lateral (select private.member_last_active(u.id) as last_active) a
    where s.auto_delete_inactive
      and u.deleted_at is null and not u.is_anonymous
      and a.last_active < now() - make_interval(months => s.inactive_period_months) + interval '14 days'
      and not exists (select 1 from private.inactivity_warnings w where w.user_id = u.id)
    order by a.last_active
    limit 1000
  loop
    insert into private.inactivity_warnings (user_id, last_active_at) values (due.id, due.last_active)
      on conflict (user_id) do nothing;
    if not found then
      continue;
    end if;
    -- Never sooner than 14 days from this warning, whatever the period says.
    on_date := to_char(greatest(due.last_active + make_interval(months => due.inactive_period_months),
      now() + interval '14 days') at time zone 'UTC', 'FMMonth FMDD, YYYY');
    perform private.notify(due.id, 'account.inactive', 'Your account will be deleted soon',
      format('You asked us to delete your account after %s months without activity. Sign in before %s to keep it, or switch "Delete my account when inactive" off in your privacy settings.',
        due.inactive_period_months, on_date),
      '/profile?tab=privacy');
    if due.email is not null then
      perform private.queue_mail(due.email, 'account_inactive', 'Your HighGrade account will be deleted soon',
        format(E'Hello,\n\nYou asked us to delete your HighGrade account after %s months without activity. It will be deleted on or after %s, with everything it holds. Sign in before then to keep it, or switch "Delete my account when inactive" off in your privacy settings.',
          due.inactive_period_months, on_date),
        '/profile?tab=privacy');
    end if;
    warned := warned + 1;
  end loop;
  return warned;
end
$$;
revoke all on function private.inactivity_warn() from public;
comment on function private.inactivity_warn() is
  'Warns members whose chosen inactivity period ends within 14 days (notification and mail), once per stretch of inactivity.';

-- The accounts to erase now: the setting is on, the period has passed, and the member was warned at
-- least 14 days ago about this same stretch of inactivity (no activity since).
create or replace function private.inactivity_due() returns setof uuid
language sql stable security definer set search_path = ''
as $$
  select u.id
  from private.inactivity_warnings w
  join public.privacy_settings s on s.user_id = w.user_id and s.auto_delete_inactive
  join auth.users u on u.id = w.user_id
  where w.warned_at <= now() - interval '14 days'
    and private.member_last_active(u.id) <= w.last_active_at
    and w.last_active_at < now() - make_interval(months => s.inactive_period_months)
  order by w.warned_at
  limit 100
$$;
revoke all on function private.inactivity_due() from public;

-- Security logs older than 12 months (the privacy policy's retention): the security events members'
-- browsers and the database log. The auth service's own log is pruned by the same job
-- (server/auth/retention.ts). Returns how many rows left.
create or replace function private.security_logs_prune() returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  removed integer;
begin
  delete from public.security_events e where e.created_at < now() - interval '12 months';
  get diagnostics removed = row_count;
  return removed;
end
$$;
revoke all on function private.security_logs_prune() from public;
