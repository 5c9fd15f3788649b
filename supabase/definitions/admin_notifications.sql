-- Notifications from what happens (issue 15, decision 100): written by the database where the event
-- happens, so no client can skip or forge them. Bookings notify in admin_bookings.sql; this file covers
-- the Scammer Network subscription — activation, cancellation and the approaching end of access.

create or replace function private.subscription_changed() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  until text := to_char(new.expires_at at time zone 'UTC', 'FMMonth FMDD, YYYY');
begin
  if tg_op = 'UPDATE' and new.status is not distinct from old.status then
    return null;
  end if;
  if new.status = 'active' then
    perform private.notify(new.user_id, 'subscription.active',
      case when tg_op = 'UPDATE' then 'Your Scammer Network subscription is active again'
           else 'Your Scammer Network subscription is active' end,
      format('You can search every published scam report. Your subscription runs until %s.', until),
      '/scammer-database');
  elsif new.status = 'cancelled' then
    perform private.notify(new.user_id, 'subscription.cancelled',
      'Your Scammer Network subscription is cancelled',
      format('You keep access to the Scammer Network until %s. You can subscribe again from your profile at any time.', until),
      '/profile?tab=subscription');
  end if;
  return null;
end
$$;
revoke all on function private.subscription_changed() from public;

create or replace trigger subscription_changed after insert or update of status on public.scammer_subscriptions
  for each row execute function private.subscription_changed();

-- Members whose cancelled subscription ends within three days hear it once (a notification and a mail).
-- Run hourly by the server's leased job 'functions: subscription reminders'; returns how many it told.
create or replace function private.remind_expiring_subscriptions() returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  due record;
  told integer := 0;
  until text;
begin
  for due in
    select s.user_id, s.expires_at, u.email::text as email
    from public.scammer_subscriptions s
    join auth.users u on u.id = s.user_id
    where s.status = 'cancelled'
      and s.expires_at > now() and s.expires_at <= now() + interval '3 days'
      and not exists (
        select 1 from private.subscription_reminders r where r.user_id = s.user_id and r.expires_at = s.expires_at
      )
    order by s.expires_at
    limit 1000
    for update of s skip locked
  loop
    insert into private.subscription_reminders (user_id, expires_at) values (due.user_id, due.expires_at)
      on conflict do nothing;
    if not found then
      continue;
    end if;
    until := to_char(due.expires_at at time zone 'UTC', 'FMMonth FMDD, YYYY');
    perform private.notify(due.user_id, 'subscription.expiring', 'Your Scammer Network access ends soon',
      format('Your cancelled subscription ends on %s. Subscribe again from your profile to keep searching the Scammer Network.', until),
      '/profile?tab=subscription');
    if due.email is not null then
      perform private.queue_mail(due.email, 'subscription_expiring', 'Your Scammer Network access ends soon',
        format(E'Hello,\n\nYour cancelled HighGrade Scammer Network subscription ends on %s. Subscribe again from your profile to keep searching the Scammer Network.', until),
        '/profile?tab=subscription');
    end if;
    told := told + 1;
  end loop;
  return told;
end
$$;
revoke all on function private.remind_expiring_subscriptions() from public;
comment on function private.remind_expiring_subscriptions() is
  'Tells members whose cancelled subscription ends within 3 days, once per end date (notification and mail).';

-- A welcome for a person who signed up: when they confirm their email address (the link or the code of
-- the sign-up mail), or when their account arrives through a social provider (the provider verified the
-- address). An account an admin creates is not a sign-up and gets none; nobody is welcomed twice.
create or replace function private.welcome_member() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    if old.email_confirmed_at is not null or new.email_confirmed_at is null then
      return null;
    end if;
  elsif coalesce(new.raw_app_meta_data ->> 'provider', 'email') in ('email', 'phone') then
    return null;
  end if;
  if exists (select 1 from public.notifications n where n.user_id = new.id and n.kind = 'welcome') then
    return null;
  end if;
  perform private.notify(new.id, 'welcome', 'Welcome to HighGrade',
    'Your account is ready. Rate products Gas or Pass, follow the industry news, and check a brand before you trade. Start by completing your profile.',
    '/profile');
  return null;
end
$$;
revoke all on function private.welcome_member() from public;

create or replace trigger welcome_member after insert or update of email_confirmed_at on auth.users
  for each row execute function private.welcome_member();
