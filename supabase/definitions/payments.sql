-- Payments (issue 22, decisions 131–133): the subscription row follows Stripe's webhook events, or the
-- labelled demo mode's direct activation. Called by the server only (server/functions/payments.ts): none
-- of these functions is granted to an API role.

-- One verified webhook event, applied once (the event id is the key) and only if it is newer than what
-- the row holds (Stripe's `created`, per state: the subscription's, and the payment's). `fact` is what the
-- server read from the event:
--   kind            'subscription' (customer.subscription.*, checkout.session.completed with the
--                   subscription it created) | 'payment_failed' | 'paid' (invoice.*) | 'ignored'
--   user_id         the member it names (metadata.user_id / client_reference_id), if any
--   customer, subscription, status, period_start, period_end, cancel_at_period_end, ended_at
-- Returns the outcome stored with the event: applied | stale | unmatched | ignored, or 'duplicate'.
create or replace function private.stripe_apply_event(
  p_event_id text, p_type text, p_created timestamptz, p_livemode boolean, fact jsonb, grace interval
) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  kind text := fact ->> 'kind';
  named_user uuid;
  target uuid;
  current public.scammer_subscriptions;
  sub_id text := fact ->> 'subscription';
  customer text := fact ->> 'customer';
  provider_status text := fact ->> 'status';
  period_start timestamptz := to_timestamp((fact ->> 'period_start')::double precision);
  period_end timestamptz := to_timestamp((fact ->> 'period_end')::double precision);
  ended_at timestamptz := to_timestamp((fact ->> 'ended_at')::double precision);
  cancelling boolean := coalesce((fact ->> 'cancel_at_period_end')::boolean, false);
  failed_at timestamptz;
  new_expires timestamptz;
  new_status text;
  result text;
begin
  insert into private.stripe_events (id, type, provider_created_at, livemode, summary)
  values (p_event_id, p_type, p_created, p_livemode, fact)
  on conflict (id) do nothing;
  if not found then
    return 'duplicate';
  end if;

  if kind not in ('subscription', 'payment_failed', 'paid') then
    update private.stripe_events set outcome = 'ignored' where id = p_event_id;
    return 'ignored';
  end if;

  -- Whose subscription: the member the event names (if that account exists), else the row that holds
  -- this Stripe subscription, else the one with this customer.
  if fact ->> 'user_id' ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then
    select u.id into named_user from auth.users u where u.id = (fact ->> 'user_id')::uuid;
  end if;
  target := named_user;
  if target is null and sub_id is not null then
    select s.user_id into target from public.scammer_subscriptions s where s.stripe_subscription_id = sub_id;
  end if;
  if target is null and customer is not null then
    select s.user_id into target from public.scammer_subscriptions s
    where s.stripe_customer_id = customer order by s.updated_at desc limit 1;
  end if;
  if target is null then
    update private.stripe_events set outcome = 'unmatched' where id = p_event_id;
    return 'unmatched';
  end if;

  select * into current from public.scammer_subscriptions s where s.user_id = target for update;

  if kind = 'subscription' then
    if sub_id is null or period_end is null then
      result := 'ignored';
    -- An older state of the same subscription than the row holds changes nothing. On the same second,
    -- an ended subscription is never revived by a state that is not.
    elsif found and current.stripe_subscription_id = sub_id and current.provider_state_at is not null
          and (current.provider_state_at > p_created
               or (current.provider_state_at = p_created and current.status = 'cancelled'
                   and current.expires_at <= p_created and provider_status in ('active', 'trialing', 'past_due'))) then
      result := 'stale';
    -- Another subscription that gives no access does not end the one the member has.
    elsif found and current.stripe_subscription_id is not null and current.stripe_subscription_id <> sub_id
          and current.expires_at > now() and provider_status not in ('active', 'trialing', 'past_due') then
      result := 'stale';
    else
      -- A failure newer than this state stays; an older one is settled by it.
      failed_at := case
        when found and current.stripe_subscription_id = sub_id and current.payment_failed_at is not null
             and (current.payment_failed_at > p_created or provider_status = 'past_due')
          then current.payment_failed_at
        when provider_status = 'past_due' then p_created
      end;
      new_expires := case
        when provider_status in ('active', 'trialing', 'past_due') and failed_at is not null
          then least(period_end, failed_at + grace)
        when provider_status in ('active', 'trialing') then period_end
        when provider_status = 'canceled' then least(coalesce(ended_at, p_created), period_end)
        else least(p_created, period_end)
      end;
      new_status := case
        when provider_status in ('active', 'trialing', 'past_due') and not cancelling then 'active'
        else 'cancelled'
      end;
      insert into public.scammer_subscriptions as s (
        user_id, subscription_type, status, expires_at, provider, stripe_customer_id,
        stripe_subscription_id, provider_state_at, payment_failed_at
      ) values (
        target, 'monthly', new_status, new_expires, 'stripe', customer, sub_id, p_created, failed_at
      )
      on conflict (user_id) do update set
        status = excluded.status,
        expires_at = excluded.expires_at,
        provider = 'stripe',
        stripe_customer_id = coalesce(excluded.stripe_customer_id, s.stripe_customer_id),
        stripe_subscription_id = excluded.stripe_subscription_id,
        provider_state_at = excluded.provider_state_at,
        payment_failed_at = excluded.payment_failed_at;
      result := 'applied';
    end if;
  else
    -- Invoices: only for the subscription the row holds.
    if not found or current.provider <> 'stripe' or current.stripe_subscription_id is distinct from sub_id then
      result := 'unmatched';
    elsif current.payment_event_at is not null and current.payment_event_at > p_created then
      result := 'stale';
    elsif kind = 'payment_failed' then
      failed_at := coalesce(current.payment_failed_at, p_created);
      update public.scammer_subscriptions set
        payment_failed_at = failed_at,
        payment_event_at = p_created,
        -- Access runs for the grace period from the failure, whatever period the row holds.
        expires_at = case when current.status = 'active' then failed_at + grace else current.expires_at end
      where user_id = target;
      if current.payment_failed_at is null then
        perform private.notify(target, 'subscription.payment_failed',
          'Your Scammer Network payment failed',
          format('We could not take your monthly payment. Update your card under Manage billing by %s to keep access to the Scammer Network.',
            to_char((failed_at + grace) at time zone 'UTC', 'FMMonth FMDD, YYYY')),
          '/profile?tab=subscription');
      end if;
      result := 'applied';
    else
      update public.scammer_subscriptions set
        payment_failed_at = null,
        payment_event_at = p_created,
        expires_at = case
          when period_end is not null and current.status = 'active' then greatest(current.expires_at, period_end)
          else current.expires_at
        end
      where user_id = target;
      result := 'applied';
    end if;
  end if;

  update private.stripe_events set outcome = result where id = p_event_id;
  return result;
end
$$;
revoke all on function private.stripe_apply_event(text, text, timestamptz, boolean, jsonb, interval) from public;

-- Demo mode (no payment account): the spec's direct activation, one month from now, for a member without
-- an unexpired subscription; a cancelled one still running is simply active again (not extended).
-- Returns the row.
create or replace function private.demo_activate_subscription(p_user uuid)
returns public.scammer_subscriptions
language plpgsql volatile security definer set search_path = ''
as $$
declare
  current public.scammer_subscriptions;
begin
  select * into current from public.scammer_subscriptions s where s.user_id = p_user for update;
  if found and current.expires_at > now() then
    if current.status = 'cancelled' and current.provider = 'demo' then
      update public.scammer_subscriptions set status = 'active' where user_id = p_user returning * into current;
    end if;
    return current;
  end if;
  insert into public.scammer_subscriptions as s (user_id, subscription_type, status, expires_at, provider)
  values (p_user, 'monthly', 'active', now() + interval '1 month', 'demo')
  on conflict (user_id) do update set
    subscription_type = 'monthly', status = 'active', expires_at = excluded.expires_at, provider = 'demo',
    stripe_customer_id = s.stripe_customer_id, stripe_subscription_id = null, provider_state_at = null,
    payment_event_at = null, payment_failed_at = null
  returning * into current;
  return current;
end
$$;
revoke all on function private.demo_activate_subscription(uuid) from public;

-- Cancelling a demo or admin-granted subscription: status cancelled, the expiry stays (access runs to it).
create or replace function private.demo_cancel_subscription(p_user uuid)
returns public.scammer_subscriptions
language plpgsql volatile security definer set search_path = ''
as $$
declare
  current public.scammer_subscriptions;
begin
  update public.scammer_subscriptions set status = 'cancelled'
  where user_id = p_user and status = 'active' and expires_at > now() and provider <> 'stripe'
  returning * into current;
  return current;
end
$$;
revoke all on function private.demo_cancel_subscription(uuid) from public;

-- Webhook events are kept 90 days (decision 133's once-only rule needs them only while Stripe may still
-- deliver an event again, 3 days; the subscription's own changes stay in the audit log). Run daily by
-- one server process; returns how many were deleted. A delivery older than that is still applied only
-- if newer than the state the row holds, so a late repeat cannot undo anything.
create or replace function private.stripe_events_prune() returns integer
language sql volatile security definer set search_path = ''
as $$
  with gone as (
    delete from private.stripe_events e where e.received_at < now() - interval '90 days' returning 1
  )
  select count(*)::integer from gone
$$;
revoke all on function private.stripe_events_prune() from public;
