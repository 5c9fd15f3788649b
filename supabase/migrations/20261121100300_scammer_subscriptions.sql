-- HighGrade product schema, part 4: scammer-network subscriptions (spec §3, §4 "Subscription",
-- "Trial") and `has_scammer_access`.
--
-- One row per user (the web app upserts on user_id): none → active on subscribe (expiry one month
-- ahead), active → cancelled on cancel, and again active on a new subscribe. No payment is taken
-- (spec §4, design.md §4), so the owner writes the row directly; what keeps that honest is the guard
-- below: an owner can only ever give themselves one month from now (decision 033).

create table if not exists public.scammer_subscriptions (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  subscription_type text not null default 'monthly'
    constraint scammer_subscriptions_subscription_type_check check (subscription_type in ('monthly')),
  status text not null default 'active'
    constraint scammer_subscriptions_status_check check (status in ('active', 'cancelled')),
  expires_at timestamptz not null default (now() + interval '1 month'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

alter table public.scammer_subscriptions enable row level security;

drop policy if exists "scammer_subscriptions: read own or as admin" on public.scammer_subscriptions;
create policy "scammer_subscriptions: read own or as admin" on public.scammer_subscriptions
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')));

drop policy if exists "scammer_subscriptions: subscribe own or as admin" on public.scammer_subscriptions;
create policy "scammer_subscriptions: subscribe own or as admin" on public.scammer_subscriptions
  for insert to authenticated
  with check (user_id = (select auth.uid()) or (select public.has_role('admin')));

drop policy if exists "scammer_subscriptions: change own or as admin" on public.scammer_subscriptions;
create policy "scammer_subscriptions: change own or as admin" on public.scammer_subscriptions
  for update to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')))
  with check (user_id = (select auth.uid()) or (select public.has_role('admin')));

drop policy if exists "scammer_subscriptions: admins remove" on public.scammer_subscriptions;
create policy "scammer_subscriptions: admins remove" on public.scammer_subscriptions
  for delete to authenticated
  using ((select public.has_role('admin')));

-- The subscription rules an owner's own writes must follow. Admins (granting access by hand) and the
-- server's roles (a future payment webhook) are not bound by the one-month window.
create or replace function private.guard_subscription() returns trigger
language plpgsql set search_path = ''
as $$
declare
  latest_allowed timestamptz := now() + interval '1 month 1 day';
begin
  if private.is_privileged() or public.has_role('admin') then
    return new;
  end if;
  -- Activating, or moving the expiry of an active subscription: one month from now at most (a day of
  -- slack for the browser's clock, which computes "one month ahead").
  if new.status = 'active' and (tg_op = 'INSERT' or old.status <> 'active' or new.expires_at <> old.expires_at) then
    if new.expires_at <= now() then
      raise exception using errcode = 'insufficient_privilege',
        message = 'scammer_subscriptions.expires_at must be in the future';
    end if;
    if new.expires_at > latest_allowed then
      raise exception using errcode = 'insufficient_privilege',
        message = 'a subscription runs for one month: scammer_subscriptions.expires_at may be at most one month ahead';
    end if;
  end if;
  if tg_op = 'INSERT' and new.expires_at > latest_allowed then
    raise exception using errcode = 'insufficient_privilege',
      message = 'a subscription runs for one month: scammer_subscriptions.expires_at may be at most one month ahead';
  end if;
  -- Cancelling ends access; it never extends the expiry.
  if tg_op = 'UPDATE' and new.status = 'cancelled' and new.expires_at > old.expires_at then
    raise exception using errcode = 'insufficient_privilege',
      message = 'a cancelled subscription cannot be extended';
  end if;
  return new;
end
$$;
revoke all on function private.guard_subscription() from public;

create or replace trigger guard_subscription before insert or update on public.scammer_subscriptions
  for each row execute function private.guard_subscription();
create or replace trigger guard_timestamps before insert or update on public.scammer_subscriptions
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger guard_immutable before update on public.scammer_subscriptions
  for each row execute function private.guard_immutable('user_id');
create or replace trigger touch_updated_at before update on public.scammer_subscriptions
  for each row execute function private.touch_updated_at();

-- Access to the scammer network (spec §4 "Trial", §6): an active, unexpired subscription, an active
-- trial, or the admin role. Anonymous callers never have it.
create or replace function public.has_scammer_access() returns boolean
language sql stable security definer set search_path = ''
as $$
  select (select auth.uid()) is not null and (
    exists (
      select 1 from public.user_roles r
      where r.user_id = (select auth.uid()) and r.role = 'admin'
    )
    or exists (
      select 1 from public.scammer_subscriptions s
      where s.user_id = (select auth.uid()) and s.status = 'active' and s.expires_at > now()
    )
    or exists (
      select 1 from public.profiles p
      where p.user_id = (select auth.uid()) and p.trial_ends_at > now()
    )
  )
$$;
comment on function public.has_scammer_access() is
  'Whether the calling user may see the scammer network: active unexpired subscription, active trial, or admin.';

revoke all on function public.has_scammer_access() from public;
grant execute on function public.has_scammer_access() to anon, authenticated, service_role;
