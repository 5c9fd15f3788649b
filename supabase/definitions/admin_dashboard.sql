-- The dashboard home's live counts (issue 15 "The shell"): one call, one round trip, admins only.

create or replace function public.admin_dashboard_counts() returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  week_ago timestamptz := now() - interval '7 days';
begin
  if not public.has_role('admin') then
    raise exception using errcode = 'insufficient_privilege', message = 'Unauthorized';
  end if;
  return jsonb_build_object(
    'reports_waiting', (select count(*) from public.scammer_reports r where r.status in ('submitted', 'under_review')),
    'bookings_new', (select count(*) from public.bookings b where b.status = 'new'),
    'posts_published_week', (
      select count(*) from public.admin_posts p where p.status = 'published' and p.created_at >= week_ago
    ),
    'members_total', (select count(*) from public.profiles),
    'members_new_week', (select count(*) from public.profiles p where p.created_at >= week_ago),
    'security_events_day', (select count(*) from public.security_events e where e.created_at >= now() - interval '24 hours'),
    'security_events_high_day', (
      select count(*) from public.security_events e
      where e.created_at >= now() - interval '24 hours' and e.risk_level in ('high', 'critical')
    )
  );
end
$$;
revoke all on function public.admin_dashboard_counts() from public;
grant execute on function public.admin_dashboard_counts() to authenticated, service_role;
comment on function public.admin_dashboard_counts() is
  'Counts for the admin dashboard home: reports waiting, new bookings, posts this week, members, security events (24 h).';
