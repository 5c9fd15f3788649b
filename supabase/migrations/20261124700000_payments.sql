-- Payments for the Scammer Network (issue 22, decisions 131–133). The subscription row now follows a
-- payment provider (Stripe) or, on an installation without a payment account, the labelled demo mode
-- (the spec's direct activation, written by the server's `subscription-activate` function). Either way
-- only the server — or an admin, audited — writes `scammer_subscriptions`: a member can no longer insert
-- or update their own row through the data API (decision 131).
--
-- Cancelling keeps access until the end of the paid period (the Terms): a cancelled row grants access
-- until `expires_at`, and `has_scammer_access` says so.

alter table public.scammer_subscriptions
  add column if not exists provider text not null default 'demo';
alter table public.scammer_subscriptions drop constraint if exists scammer_subscriptions_provider_check;
alter table public.scammer_subscriptions add constraint scammer_subscriptions_provider_check
  check (provider in ('demo', 'stripe', 'admin'));
-- Stripe's ids (pseudonymous: useless without the secret key) for "Manage billing" and the webhook.
alter table public.scammer_subscriptions add column if not exists stripe_customer_id text;
alter table public.scammer_subscriptions add column if not exists stripe_subscription_id text;
alter table public.scammer_subscriptions drop constraint if exists scammer_subscriptions_stripe_ids_format;
alter table public.scammer_subscriptions add constraint scammer_subscriptions_stripe_ids_format check (
  (stripe_customer_id is null or stripe_customer_id ~ '^cus_[A-Za-z0-9]{1,200}$')
  and (stripe_subscription_id is null or stripe_subscription_id ~ '^sub_[A-Za-z0-9]{1,200}$'));
create unique index if not exists scammer_subscriptions_stripe_subscription_key
  on public.scammer_subscriptions (stripe_subscription_id) where stripe_subscription_id is not null;
create index if not exists scammer_subscriptions_stripe_customer_idx
  on public.scammer_subscriptions (stripe_customer_id) where stripe_customer_id is not null;
-- The provider time (Stripe's event `created`) of the subscription state and of the payment state the
-- row holds: an event older than what was applied is stored but changes nothing (out-of-order safety).
alter table public.scammer_subscriptions add column if not exists provider_state_at timestamptz;
alter table public.scammer_subscriptions add column if not exists payment_event_at timestamptz;
-- When the renewal payment failed; access then runs until payment_failed_at + the grace period.
alter table public.scammer_subscriptions add column if not exists payment_failed_at timestamptz;

-- Members read their row; only admins (audited below) write it through the data API. The server's own
-- roles bypass row-level security (the webhook, the demo activation).
drop policy if exists "scammer_subscriptions: subscribe own or as admin" on public.scammer_subscriptions;
drop policy if exists "scammer_subscriptions: admins grant" on public.scammer_subscriptions;
create policy "scammer_subscriptions: admins grant" on public.scammer_subscriptions
  for insert to authenticated
  with check ((select public.has_role('admin')));

drop policy if exists "scammer_subscriptions: change own or as admin" on public.scammer_subscriptions;
drop policy if exists "scammer_subscriptions: admins change" on public.scammer_subscriptions;
create policy "scammer_subscriptions: admins change" on public.scammer_subscriptions
  for update to authenticated
  using ((select public.has_role('admin')))
  with check ((select public.has_role('admin')));

-- RLS stays on (stated again: this migration changes the table's policies).
alter table public.scammer_subscriptions enable row level security;

-- An admin's grant is marked as one (the tab and the dashboard say "granted by an admin").
create or replace function private.mark_admin_grant() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if not private.is_privileged() and public.has_role('admin') then
    new.provider := 'admin';
  end if;
  return new;
end
$$;
revoke all on function private.mark_admin_grant() from public;
create or replace trigger mark_admin_grant before insert or update on public.scammer_subscriptions
  for each row execute function private.mark_admin_grant();

-- Every change is in the audit log: an admin's grant or revoke with the admin as actor, the server's
-- (webhook, demo activation) with none.
create or replace trigger audit after insert or update or delete on public.scammer_subscriptions
  for each row execute function private.audit_row_change();

-- Access (public.has_scammer_access) now counts a cancelled subscription until its paid period ends:
-- supabase/definitions/has_scammer_access.sql (decisions 089, 131).

-- Every webhook event the server accepted (signature verified), once: the primary key makes a repeated
-- delivery a no-op. What is kept is what was applied (ids, states, times) — no card or contact details.
create table if not exists private.stripe_events (
  id text primary key constraint stripe_events_id_format check (id ~ '^evt_[A-Za-z0-9_]{1,200}$'),
  type text not null constraint stripe_events_type_length check (char_length(type) between 1 and 100),
  provider_created_at timestamptz not null,
  received_at timestamptz not null default now(),
  livemode boolean not null default false,
  -- applied | stale | duplicate-state | unmatched | ignored
  outcome text not null default 'received'
    constraint stripe_events_outcome_check check (outcome in ('received', 'applied', 'stale', 'unmatched', 'ignored')),
  summary jsonb not null default '{}'::jsonb
);
create index if not exists stripe_events_received_at_idx on private.stripe_events (received_at desc);
alter table private.stripe_events enable row level security;
revoke all on table private.stripe_events from public, anon, authenticated, service_role;
