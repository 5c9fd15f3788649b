-- Which "your access ends soon" reminders were sent (issue 15 "Notifications from what happens"): one per
-- subscription and end date, so the hourly reminder run never tells a member twice. The functions that
-- write it are in supabase/definitions/admin_notifications.sql. It belongs to the subscription (and goes
-- with it, and so with the account).

create table if not exists private.subscription_reminders (
  user_id uuid not null references public.scammer_subscriptions (user_id) on delete cascade,
  expires_at timestamptz not null,
  sent_at timestamptz not null default now(),
  primary key (user_id, expires_at)
);
revoke all on table private.subscription_reminders from public, anon, authenticated, service_role;
