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

-- Each suspension's end follows auth.users (private.member_bans, decision 281), however it is set: the
-- admins' screen, auth's admin API (ban_duration) or SQL. Lifted, its row goes. The triggers fire only
-- when there is something to copy: a new account suspended from the start (a sign-up is not), or an
-- end that changed.
create or replace function private.member_bans_keep() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.banned_until is null then
    delete from private.member_bans b where b.user_id = new.id;
  else
    insert into private.member_bans (user_id, banned_until) values (new.id, new.banned_until)
    on conflict (user_id) do update set banned_until = excluded.banned_until;
  end if;
  return null;
end
$$;
revoke all on function private.member_bans_keep() from public;
create or replace trigger member_bans_keep after insert
  on auth.users for each row when (new.banned_until is not null)
  execute function private.member_bans_keep();
create or replace trigger member_bans_follow after update of banned_until
  on auth.users for each row when (old.banned_until is distinct from new.banned_until)
  execute function private.member_bans_keep();

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

-- The admins' member search (decision 280): one page of the members for whom every word typed begins a
-- word of their email, username or name, in the list's order and with its filters, and their total.
-- Through the data API (admin_member_search) the planner chose the page's plan from its estimate of a
-- word's matches: an early member's number, which it has no statistics for, it took to match 7,831
-- members (111 did), and it read the members newest first checking each one's words, 6,040,327 of them
-- before the page was full (12.7 s; the admins' statement timeout is 8 s; at 10,000,000 members,
-- bench/scale.ts). Here the order's first five pages' worth are read first (a common word fills its
-- page there, decision 263); otherwise the matches are counted through the index of the words
-- (member_search_words_idx) up to √(page × members), at least 1,000: a few are sorted, many are read
-- in the list's order until the page is full (count_first.sql). When only admins are asked for, their
-- role's rows are the candidates.
-- The total is exact when the matches were counted, and PostgreSQL's estimate above the count's cap
-- (`approximate`), as the admin lists' totals are (decision 252).
create or replace function public.admin_find_members(
  q text,
  role text default null,
  status text default null,
  sort text default 'newest',
  page_offset integer default 0,
  page_rows integer default 25
)
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_q text := btrim(coalesce(q, ''));
  v_rows integer := coalesce(page_rows, 25);
  v_offset integer := coalesce(page_offset, 0);
  v_query tsquery;
  v_order text;
  v_filter text := '';
  v_match text;
  v_cap integer;
  v_ids text[];
  v_first text[] := '{}';
  v_page text[];
  v_estimated text;
  v_total bigint;
  v_approximate boolean := false;
  -- A page read in the list's order: %1$s the order, %2$s how many members of it are read, %3$s the
  -- words, %4$s the filter, %5$s and %6$s the page's limit and offset.
  v_walk constant text := 'select p.user_id::text
    from (select p.user_id, p.created_at, p.full_name from public.profiles p %1$s limit %2$s) p
    join private.member_search w on w.user_id = p.user_id
    where %3$s%4$s %1$s limit %5$s offset %6$s';
begin
  if not public.has_role('admin') then
    raise exception using errcode = '42501', message = 'Only admins can search members.';
  end if;
  if char_length(v_q) > 100 then
    raise exception using errcode = '22023', message = 'Search for at most 100 characters.';
  end if;
  if role is not null and role <> 'admin' then
    raise exception using errcode = '22023', message = 'Filter by the role admin, or by none.';
  end if;
  if status is not null and status not in ('suspended', 'active') then
    raise exception using errcode = '22023', message = 'Filter by the status suspended or active, or by none.';
  end if;
  v_order := case coalesce(sort, 'newest')
    when 'newest' then 'order by p.created_at desc nulls last, p.user_id desc'
    when 'oldest' then 'order by p.created_at asc nulls last, p.user_id asc'
    when 'name' then 'order by p.full_name asc nulls last, p.user_id asc'
  end;
  if v_order is null then
    raise exception using errcode = '22023', message = 'Sort by newest, oldest or name.';
  end if;
  if v_rows < 1 or v_rows > 100 then
    raise exception using errcode = '22023', message = 'Ask for 1 to 100 members a page.';
  end if;
  if v_offset < 0 or v_offset > 1000000 then
    raise exception using errcode = '22023', message = 'Start a page at 0 to 1000000 members in.';
  end if;

  -- Each word as the web app splits it and the words were stored (private.member_search_words): an
  -- exact term, any case. Punctuation alone has no words and finds no one.
  select pg_catalog.to_tsquery('simple', pg_catalog.string_agg(pg_catalog.quote_literal(w), ' & '))
  into v_query
  from pg_catalog.regexp_split_to_table(v_q, '[\x01-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+') w
  where w <> '';
  if v_query is null or pg_catalog.numnode(v_query) = 0 then
    return jsonb_build_object('members', '[]'::jsonb, 'total', 0, 'approximate', false);
  end if;
  v_match := format('w.words @@ %L::tsquery', v_query);
  if status is not null then
    v_filter := format(' and %s coalesce((select u.banned_until > now() from auth.users u where u.id = p.user_id), false)',
      case when status = 'active' then 'not' else '' end);
  end if;

  if role = 'admin' or status = 'suspended' then
    -- The admins are few, and so are the suspended (private.member_bans, decision 281): they are the
    -- candidates, sorted. The filter still reads each one's account, which has the last word.
    v_ids := private.count_first_ids(format(
      'select p.user_id::text from (%s) c
       join public.profiles p on p.user_id = c.user_id
       join private.member_search w on w.user_id = p.user_id
       where %s%s %s',
      case when role = 'admin'
        then format('select r.user_id from public.user_roles r where r.role = %L', 'admin')
        else 'select b.user_id from private.member_bans b where b.banned_until > now()' end,
      v_match, v_filter, v_order));
  else
    v_cap := greatest(1000, private.count_first_cap('public.profiles', v_offset + v_rows));
    v_estimated := format('select 1 from public.profiles p join private.member_search w on w.user_id = p.user_id
      where %s%s', v_match, v_filter);
    -- The order's first five pages' worth (at most the cap), their matches kept (decision 263). A word
    -- that fills its page there and that PostgreSQL's statistics count more often than the cap (a
    -- common word's frequency is measured in its sample; a word it has no figure for is priced rarer
    -- than any it kept) is not counted: the count would read its whole posting list (a word every
    -- member's address holds took 0.9 s at 10,000,000 members).
    v_first := private.count_first_ids(format(v_walk,
      v_order, least(5 * (v_offset + v_rows), v_cap), v_match, v_filter, v_offset + v_rows, 0), true);
    if cardinality(v_first) >= v_offset + v_rows then
      v_total := private.estimated_rows(v_estimated);
      v_approximate := v_total > v_cap;
    end if;
    if not v_approximate then
      -- Counted through the index of the words, up to the cap (a statement of its own: bitmap scans
      -- of the words' index alone); the few are filtered and sorted.
      v_ids := private.count_first_ids(format(
        'select w.user_id::text from private.member_search w where %s limit %s', v_match, v_cap + 1));
      if cardinality(v_ids) <= v_cap then
        v_ids := private.count_first_ids(format(
          'select p.user_id::text from public.profiles p where p.user_id = any(%L::uuid[])%s %s',
          v_ids, v_filter, v_order));
      else
        v_approximate := true;
        v_total := private.estimated_rows(v_estimated);
      end if;
    end if;
  end if;

  if not v_approximate then
    v_page := v_ids[v_offset + 1 : v_offset + v_rows];
    v_total := cardinality(v_ids);
  elsif cardinality(v_first) >= v_offset + v_rows then
    v_page := v_first[v_offset + 1 : v_offset + v_rows];
  else
    -- Many: the page read in the list's order until it is full, for at most four times the cap's
    -- members (spread evenly, more than the cap match in one member of √(members / page) and the page
    -- is full within the cap). Matches that lie elsewhere in the order (members who signed up together
    -- years ago) are all sorted instead: the cost follows the matches, never every member.
    v_page := private.count_first_ids(format(v_walk,
      v_order, 4 * v_cap, v_match, v_filter, v_rows, v_offset), true);
    if cardinality(v_page) < v_rows then
      v_page := private.count_first_ids(format(
        'select p.user_id::text from (select w.user_id from private.member_search w where %s offset 0) w
         join public.profiles p on p.user_id = w.user_id where true%s %s limit %s offset %s',
        v_match, v_filter, v_order, v_rows, v_offset));
    end if;
  end if;
  -- Above the cap, the total is PostgreSQL's estimate of the matches, at least the cap's, unless the
  -- page came back short: then it holds the last matches there are (a filter few of them pass), and
  -- the total is exact, as the data API counts a short page (server/rest/query.ts).
  if v_approximate and cardinality(v_page) < v_rows and (v_offset = 0 or cardinality(v_page) > 0) then
    v_total := v_offset + cardinality(v_page);
    v_approximate := false;
  elsif v_approximate then
    v_total := greatest(v_cap + 1, v_total);
  end if;

  return jsonb_build_object(
    'members', coalesce((
      select jsonb_agg(to_jsonb(m) order by o.n)
      from unnest(v_page) with ordinality as o (id, n)
      cross join lateral (select m.* from public.admin_members m where m.id = o.id::uuid offset 0) m
    ), '[]'::jsonb),
    'total', v_total,
    'approximate', v_approximate);
end
$$;
revoke all on function public.admin_find_members(text, text, text, text, integer, integer) from public;
grant execute on function public.admin_find_members(text, text, text, text, integer, integer)
  to authenticated, service_role;
comment on function public.admin_find_members(text, text, text, text, integer, integer) is
  'Admins: a page of the members every word of q begins a word of (email, username, name), with role (admin), status (suspended, active), sort (newest, oldest, name), page_offset and page_rows; {members, total, approximate} (decision 280).';
