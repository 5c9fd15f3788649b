-- Whether the calling user may see the Scammer Network (product §scammer-network, decision 131).
-- Access: an unexpired subscription, active or cancelled (cancelling keeps the paid period), an active
-- trial, or the admin role.
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
      where s.user_id = (select auth.uid()) and s.status in ('active', 'cancelled') and s.expires_at > now()
    )
    or exists (
      select 1 from public.profiles p
      where p.user_id = (select auth.uid()) and p.trial_ends_at > now()
    )
  )
$$;
comment on function public.has_scammer_access() is
  'Whether the calling user may see the scammer network: unexpired subscription (active, or cancelled until its paid period ends), active trial, or admin.';
revoke all on function public.has_scammer_access() from public;
grant execute on function public.has_scammer_access() to anon, authenticated, service_role;
