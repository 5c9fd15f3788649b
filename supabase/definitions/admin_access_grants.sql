-- Admins grant or revoke Scammer Network access from the dashboard (issue 34, decision 167): a
-- subscription (whole months, marked as an admin's grant, no charge) or a trial (hours). Admins only,
-- checked here; each change is in the audit log with the admin as actor — the subscription's by its
-- table's audit trigger (payments migration), the trial's by private.audit below. A card-paid (Stripe)
-- subscription is never ended here: Stripe would go on charging, so the admin is told where to cancel.

create or replace function public.admin_grant_subscription(member_id uuid, months integer)
returns timestamptz
language plpgsql volatile security definer set search_path = ''
as $$
declare
  current public.scammer_subscriptions;
  ends timestamptz;
begin
  if not public.has_role('admin') then
    raise exception using errcode = 'insufficient_privilege', message = 'Unauthorized';
  end if;
  if member_id is null or months is null then
    raise exception using errcode = 'null_value_not_allowed', message = 'Say which member and for how many months.';
  end if;
  if months < 1 or months > 12 then
    raise exception using errcode = 'check_violation', message = 'Grant from 1 to 12 months.';
  end if;
  perform 1 from public.profiles p where p.user_id = member_id;
  if not found then
    raise exception using errcode = 'PT404', message = 'Member not found.';
  end if;
  select s.* into current from public.scammer_subscriptions s where s.user_id = member_id for update;
  if found and current.provider = 'stripe' and current.expires_at > now() then
    raise exception using errcode = 'check_violation',
      message = 'This member pays by card: change their subscription in Stripe, not here.';
  end if;
  -- An unexpired grant is extended; anything else starts now.
  ends := greatest(now(), case when found and current.status = 'active' then current.expires_at else now() end)
    + make_interval(months => months);
  insert into public.scammer_subscriptions as s (user_id, subscription_type, status, expires_at, provider)
  values (member_id, 'monthly', 'active', ends, 'admin')
  on conflict (user_id) do update set
    subscription_type = 'monthly', status = 'active', expires_at = excluded.expires_at, provider = 'admin',
    stripe_subscription_id = null, provider_state_at = null, payment_failed_at = null;
  return ends;
end
$$;
revoke all on function public.admin_grant_subscription(uuid, integer) from public;
grant execute on function public.admin_grant_subscription(uuid, integer) to authenticated, service_role;
comment on function public.admin_grant_subscription(uuid, integer) is
  'Admins only: grant (or extend) a member''s Scammer Network subscription by 1–12 months, at no charge; audited. Returns the new end.';

create or replace function public.admin_revoke_subscription(member_id uuid)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  current public.scammer_subscriptions;
begin
  if not public.has_role('admin') then
    raise exception using errcode = 'insufficient_privilege', message = 'Unauthorized';
  end if;
  if member_id is null then
    raise exception using errcode = 'null_value_not_allowed', message = 'Say which member.';
  end if;
  select s.* into current from public.scammer_subscriptions s where s.user_id = member_id for update;
  if not found or current.expires_at <= now() then
    raise exception using errcode = 'P0001', message = 'This member has no running subscription.';
  end if;
  if current.provider = 'stripe' then
    raise exception using errcode = 'check_violation',
      message = 'This member pays by card: cancel their subscription in Stripe, not here.';
  end if;
  -- Access ends now; the row stays (cancelled, expired) as the history the tab and dashboard show.
  update public.scammer_subscriptions s set status = 'cancelled', expires_at = now()
  where s.user_id = member_id;
end
$$;
revoke all on function public.admin_revoke_subscription(uuid) from public;
grant execute on function public.admin_revoke_subscription(uuid) to authenticated, service_role;
comment on function public.admin_revoke_subscription(uuid) is
  'Admins only: end a member''s demo or admin-granted subscription now (never a card-paid one); audited.';

create or replace function public.admin_set_trial(member_id uuid, hours integer)
returns timestamptz
language plpgsql volatile security definer set search_path = ''
as $$
declare
  before_end timestamptz;
  after_end timestamptz;
begin
  if not public.has_role('admin') then
    raise exception using errcode = 'insufficient_privilege', message = 'Unauthorized';
  end if;
  if member_id is null or hours is null then
    raise exception using errcode = 'null_value_not_allowed', message = 'Say which member and for how many hours.';
  end if;
  if hours < 0 or hours > 720 then
    raise exception using errcode = 'check_violation', message = 'A trial runs from 1 to 720 hours (0 ends it now).';
  end if;
  select p.trial_ends_at into before_end from public.profiles p where p.user_id = member_id for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'Member not found.';
  end if;
  if hours = 0 and before_end <= now() then
    raise exception using errcode = 'P0001', message = 'This member has no running trial.';
  end if;
  after_end := now() + make_interval(hours => hours);
  update public.profiles p set trial_ends_at = after_end where p.user_id = member_id;
  perform private.audit(case when hours = 0 then 'trial.end' else 'trial.grant' end, 'public.profiles',
    member_id::text, jsonb_build_object('trial_ends_at', before_end), jsonb_build_object('trial_ends_at', after_end));
  return after_end;
end
$$;
revoke all on function public.admin_set_trial(uuid, integer) from public;
grant execute on function public.admin_set_trial(uuid, integer) to authenticated, service_role;
comment on function public.admin_set_trial(uuid, integer) is
  'Admins only: give a member a trial of 1–720 hours from now, or end it now (0); audited.';
