-- Members and roles (product §admin, issue 15 "Members and roles", decision 102): the admins' member
-- list, granting and revoking the admin role (never the last one), suspending and restoring accounts.
-- Every change is audited: user_roles by its audit trigger (admin_audit.sql), suspensions here.

-- What admins list: each member's profile, role, access, activity counts and whether the account is
-- suspended. Owner's rights (it reads auth.users), rows only for admins. Scalar subqueries rather than
-- joins, so a count over the view reads profiles alone.
create or replace view public.admin_members as
  select
    p.user_id as id,
    (select u.email::text from auth.users u where u.id = p.user_id) as email,
    p.username,
    p.full_name,
    p.avatar_url,
    p.created_at,
    (select u.last_sign_in_at from auth.users u where u.id = p.user_id) as last_sign_in_at,
    coalesce((select u.banned_until > now() from auth.users u where u.id = p.user_id), false) as suspended,
    exists (select 1 from public.user_roles r where r.user_id = p.user_id and r.role = 'admin') as is_admin,
    (select s.status from public.scammer_subscriptions s where s.user_id = p.user_id) as subscription_status,
    (select s.expires_at from public.scammer_subscriptions s where s.user_id = p.user_id) as subscription_expires_at,
    p.trial_ends_at,
    (select count(*) from public.scammer_reports r where r.reporter_user_id = p.user_id) as report_count,
    (select count(*) from public.bookings b where b.user_id = p.user_id) as booking_count
  from public.profiles p
  where (select public.has_role('admin'));

comment on view public.admin_members is
  'Members with role, access, report and booking counts and suspension; rows only for admins. Search in admin_member_search.';
revoke all on table public.admin_members from public, anon, authenticated, service_role;
grant select on table public.admin_members to authenticated, service_role;

-- The admins' member search (decision 255): the same rows with `search_words`, every beginning of every
-- word of the member's email, username and name, in a full-text index. Filter with
-- search_words=fts(simple).'word' & 'other': each word typed begins a word of theirs. A view of its own,
-- because a join in admin_members would be kept by PostgreSQL in every count of the list (a WHERE clause
-- without columns, the admin check, stops it removing an unused left join).
-- search_words comes first: a column added to admin_members later then lands at the end of both views,
-- which `create or replace view` allows.
create or replace view public.admin_member_search as
  select w.words as search_words, m.*
  from public.admin_members m
  join private.member_search w on w.user_id = m.id;

comment on view public.admin_member_search is
  'admin_members with search_words: filter with fts(simple), each word typed the beginning of a word of theirs.';
revoke all on table public.admin_member_search from public, anon, authenticated, service_role;
grant select on table public.admin_member_search to authenticated, service_role;

-- A member's search words (decision 255) follow their profile: written with it, and again when its
-- email, username or name changes; deleted with it (the table's foreign key).
create or replace function private.member_search_keep() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into private.member_search (user_id, words)
  values (new.user_id, private.member_search_words(new.email, new.username, new.full_name))
  on conflict (user_id) do update set words = excluded.words;
  return null;
end
$$;
revoke all on function private.member_search_keep() from public;
create or replace trigger member_search_keep after insert or update of email, username, full_name
  on public.profiles for each row execute function private.member_search_keep();

-- HighGrade always keeps an admin: a signed-in member (the admin screen, the data API) revoking or moving
-- the last admin role is refused. The operator's own tools (`npm run admin`, SQL without a member's
-- claims) are not held up — they are how an operator recovers — and neither is deleting an account,
-- which takes its roles with it (the account row is gone by then). Concurrent revokes queue on one
-- lock, so two admins revoking each other at once cannot leave none.
create or replace function private.keep_an_admin() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if old.role <> 'admin'
     or (tg_op = 'UPDATE' and new.role = 'admin' and new.user_id = old.user_id)
     or (select auth.uid()) is null
     or not exists (select 1 from auth.users u where u.id = old.user_id) then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  perform pg_advisory_xact_lock(hashtext('public.user_roles: keep an admin'));
  if not exists (
    select 1 from public.user_roles r
    join auth.users u on u.id = r.user_id
    where r.role = 'admin' and r.id <> old.id
  ) then
    raise exception using errcode = 'check_violation',
      message = 'This is the last admin role: make another member an admin first.';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;
revoke all on function private.keep_an_admin() from public;

create or replace trigger keep_an_admin before update or delete on public.user_roles
  for each row execute function private.keep_an_admin();

-- Grant or revoke the admin role. The role row's trigger audits it; the last admin's is kept.
create or replace function public.admin_set_admin_role(member_id uuid, make_admin boolean)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if not public.has_role('admin') then
    raise exception using errcode = 'insufficient_privilege', message = 'Unauthorized';
  end if;
  if member_id is null or make_admin is null then
    raise exception using errcode = 'null_value_not_allowed', message = 'Say which member and whether to make them an admin.';
  end if;
  perform 1 from auth.users u where u.id = member_id for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'Member not found.';
  end if;
  if make_admin then
    if exists (select 1 from auth.users u where u.id = member_id and u.banned_until > now()) then
      raise exception using errcode = 'check_violation', message = 'Restore this account before making it an admin.';
    end if;
    insert into public.user_roles (user_id, role) values (member_id, 'admin') on conflict (user_id, role) do nothing;
  else
    delete from public.user_roles r where r.user_id = member_id and r.role = 'admin';
  end if;
end
$$;
revoke all on function public.admin_set_admin_role(uuid, boolean) from public;
grant execute on function public.admin_set_admin_role(uuid, boolean) to authenticated, service_role;
comment on function public.admin_set_admin_role(uuid, boolean) is
  'Admins only: grant (true) or revoke (false) a member''s admin role; the last admin role is never revoked.';

-- Suspend or restore an account. A suspended account cannot sign in or refresh a session (auth checks
-- banned_until, as GoTrue does) and its sessions end now; restoring lifts the suspension.
create or replace function public.admin_set_suspended(member_id uuid, suspend boolean)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  was_suspended boolean;
begin
  if not public.has_role('admin') then
    raise exception using errcode = 'insufficient_privilege', message = 'Unauthorized';
  end if;
  if member_id is null or suspend is null then
    raise exception using errcode = 'null_value_not_allowed', message = 'Say which member and whether to suspend the account.';
  end if;
  if member_id = (select auth.uid()) then
    raise exception using errcode = 'check_violation', message = 'You cannot suspend your own account.';
  end if;
  select coalesce(u.banned_until > now(), false) into was_suspended from auth.users u where u.id = member_id for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'Member not found.';
  end if;
  if suspend and exists (select 1 from public.user_roles r where r.user_id = member_id and r.role = 'admin') then
    raise exception using errcode = 'check_violation', message = 'Revoke this member''s admin role before suspending the account.';
  end if;
  if suspend = was_suspended then
    return;
  end if;
  update auth.users u
  set banned_until = case when suspend then now() + interval '100 years' else null end, updated_at = now()
  where u.id = member_id;
  if suspend then
    delete from auth.sessions s where s.user_id = member_id;
  end if;
  -- The member hears it by mail (they can no longer sign in to read a notification).
  perform private.queue_mail(
    (select u.email::text from auth.users u where u.id = member_id),
    case when suspend then 'account_suspended' else 'account_restored' end,
    case when suspend then 'Your HighGrade account is suspended' else 'Your HighGrade account is restored' end,
    case when suspend
      then E'Hello,\n\nAn admin has suspended your HighGrade account, so you cannot sign in for now. If you think this is a mistake, reply to this mail.'
      else E'Hello,\n\nYour HighGrade account is restored: you can sign in again.' end,
    case when suspend then null else '/auth' end);
  perform private.audit(case when suspend then 'member.suspend' else 'member.restore' end, 'auth.users',
    member_id::text, jsonb_build_object('suspended', was_suspended), jsonb_build_object('suspended', suspend));
end
$$;
revoke all on function public.admin_set_suspended(uuid, boolean) from public;
grant execute on function public.admin_set_suspended(uuid, boolean) to authenticated, service_role;
comment on function public.admin_set_suspended(uuid, boolean) is
  'Admins only: suspend (true: no sign-in or refresh, sessions end) or restore (false) a member''s account.';
