-- Votes (product §pass-or-gas, decisions 115 and 116): who may vote, when a vote counts, ring
-- detection, and the tallies the triggers keep.
--
-- A member's vote counts in rankings when their email is confirmed (required to vote at all) and
-- their account is older than private.votes_settings.min_account_age (VOTE_MIN_ACCOUNT_AGE_HOURS,
-- default 24 h); before that it is `pending` and private.votes_housekeeping() promotes it. Ring
-- detection (VOTE_RING_DETECTION, default on): when RING_SIZE or more accounts created within
-- RING_ACCOUNT_SPAN of each other vote on the same product from the same client address within
-- RING_WINDOW, all their votes there are `held` for an admin in the moderation queue.

-- True for the server's own work: a server-side session, a change one of our triggers makes (nested
-- trigger), or a moderation procedure that set highgrade.votes_internal for its transaction.
create or replace function private.votes_internal() returns boolean
language sql stable set search_path = ''
as $$
  select private.caller_is_privileged() or pg_trigger_depth() > 1
    or coalesce(current_setting('highgrade.votes_internal', true), '') = 'on'
$$;
revoke all on function private.votes_internal() from public;

-- The ring rule's constants, published on the "How rankings work" page.
create or replace function private.votes_ring_rule(out ring_size integer, out ring_window interval,
  out ring_account_span interval)
language sql immutable parallel safe set search_path = ''
as $$
  select 4, interval '15 minutes', interval '24 hours'
$$;
revoke all on function private.votes_ring_rule() from public;

-- A keyed hash of a client address (the key is private.keyed_hash_key, readable by nobody through the
-- API): equal addresses give equal hashes, and the address cannot be recovered from it.
create or replace function private.votes_address_hash(address inet) returns text
language sql stable security definer set search_path = ''
as $$
  select encode(sha256(k.key || convert_to('vote-address:' || host(address), 'UTF8') || k.key), 'hex')
  from private.keyed_hash_key k where k.id
$$;
revoke all on function private.votes_address_hash(inet) from public;

-- Adds the moderation item a held cluster goes to (one open item per product).
create or replace function private.votes_open_hold(p_product_id text) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_item uuid;
begin
  select m.id into v_item from public.moderation_items m
  where m.kind = 'held_votes' and m.product_id = p_product_id and m.status = 'open'
  order by m.created_at limit 1;
  if v_item is null then
    insert into public.moderation_items (kind, product_id) values ('held_votes', p_product_id)
    returning id into v_item;
  end if;
  return v_item;
end
$$;
revoke all on function private.votes_open_hold(text) from public;

create or replace function private.votes_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_confirmed timestamptz;
  v_created timestamptz;
  v_archived timestamptz;
  v_settings private.votes_settings%rowtype;
  v_rule record;
  v_ip inet;
  v_hash text;
  v_others integer;
begin
  if private.votes_internal() then
    if tg_op = 'INSERT' and new.counts_from is null then
      new.counts_from := now();
    end if;
    return new;
  end if;

  if tg_op = 'UPDATE' then
    if (new.status, new.counts_from, new.hold_id) is distinct from (old.status, old.counts_from, old.hold_id) then
      raise exception using errcode = 'insufficient_privilege',
        message = 'product_votes.status is set by the server',
        hint = 'Send only vote_type to change a vote.';
    end if;
    return new;
  end if;

  if new.user_id is distinct from v_uid then
    raise exception using errcode = 'insufficient_privilege', message = 'You can only vote as yourself.';
  end if;
  -- (An id of the wrong shape gets the column's own constraint error.)
  select p.archived_at into v_archived from public.products p where p.id = new.product_id;
  if not found and private.is_product_id(new.product_id) then
    raise exception using errcode = 'foreign_key_violation', message = 'There is no product with this id.';
  end if;
  if v_archived is not null then
    raise exception using errcode = 'insufficient_privilege',
      message = 'This product is archived: voting on it has closed.';
  end if;
  select u.email_confirmed_at, u.created_at into v_confirmed, v_created from auth.users u where u.id = v_uid;
  if v_confirmed is null then
    raise exception using errcode = 'insufficient_privilege',
      message = 'Confirm your email address before voting.',
      hint = 'Open the link in the confirmation email we sent you.';
  end if;

  select * into v_settings from private.votes_settings s where s.id;
  new.counts_from := v_created + coalesce(v_settings.min_account_age, interval '24 hours');
  new.status := case when new.counts_from <= now() then 'counted' else 'pending' end;
  new.hold_id := null;

  v_ip := private.request_ip();
  if coalesce(v_settings.ring_detection, true) and v_ip is not null then
    select * into v_rule from private.votes_ring_rule();
    v_hash := private.votes_address_hash(v_ip);
    select count(distinct s.user_id) into v_others from private.votes_signals s
    where s.product_id = new.product_id and s.address_hash = v_hash
      and s.voted_at > now() - v_rule.ring_window and s.user_id <> v_uid
      and s.account_created_at between v_created - v_rule.ring_account_span and v_created + v_rule.ring_account_span;
    if v_others + 1 >= v_rule.ring_size then
      new.status := 'held';
      new.hold_id := private.votes_open_hold(new.product_id);
    end if;
  end if;
  return new;
end
$$;
revoke all on function private.votes_before_write() from public;

-- After a member's vote: its signal is stored, and a vote that completed a ring holds the ring's other
-- votes on the product (those no admin has reviewed yet).
create or replace function private.votes_after_insert() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_ip inet;
  v_hash text;
  v_created timestamptz;
  v_rule record;
begin
  if private.caller_is_privileged() then
    return null;
  end if;
  v_ip := private.request_ip();
  if v_ip is null or not coalesce((select s.ring_detection from private.votes_settings s where s.id), true) then
    return null;
  end if;
  v_hash := private.votes_address_hash(v_ip);
  select u.created_at into v_created from auth.users u where u.id = new.user_id;
  insert into private.votes_signals (vote_id, user_id, product_id, address_hash, account_created_at)
  values (new.id, new.user_id, new.product_id, v_hash, v_created)
  on conflict (vote_id) do nothing;

  if new.status = 'held' and new.hold_id is not null then
    select * into v_rule from private.votes_ring_rule();
    update public.product_votes v set status = 'held', hold_id = new.hold_id
    from private.votes_signals s
    where s.vote_id = v.id and v.id <> new.id and v.hold_id is null and v.status in ('counted', 'pending')
      and s.product_id = new.product_id and s.address_hash = v_hash
      and s.voted_at > now() - v_rule.ring_window
      and s.account_created_at between v_created - v_rule.ring_account_span and v_created + v_rule.ring_account_span;
    update public.moderation_items m set
      votes = (select count(*) from public.product_votes v where v.hold_id = m.id and v.status = 'held'),
      updated_at = now()
    where m.id = new.hold_id;
  end if;
  if random() < 0.01 then
    delete from private.votes_signals s where s.voted_at < now() - interval '30 days';
  end if;
  return null;
end
$$;
revoke all on function private.votes_after_insert() from public;

-- The tallies: each change of a vote takes out what the old row contributed and adds the new row's.
create or replace function private.votes_tally() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  d_gas integer := 0;
  d_pass integer := 0;
  d_pending integer := 0;
  d_held integer := 0;
  d_trend double precision := 0;
  v_product text;
  v_day date;
begin
  if tg_op = 'UPDATE' and (new.status, new.vote_type, new.updated_at, new.product_id)
      is not distinct from (old.status, old.vote_type, old.updated_at, old.product_id) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    v_product := old.product_id;
    if old.status = 'counted' then
      v_day := (old.updated_at at time zone 'UTC')::date;
      if old.vote_type = 'gas' then
        d_gas := d_gas - 1;
        d_trend := d_trend - private.votes_trend_weight(old.updated_at);
        update public.product_vote_days set gas = gas - 1 where product_id = old.product_id and day = v_day;
      else
        d_pass := d_pass - 1;
        d_trend := d_trend + private.votes_trend_weight(old.updated_at);
        update public.product_vote_days set pass = pass - 1 where product_id = old.product_id and day = v_day;
      end if;
    elsif old.status = 'pending' then
      d_pending := d_pending - 1;
    elsif old.status = 'held' then
      d_held := d_held - 1;
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    v_product := new.product_id;
    if new.status = 'counted' then
      v_day := (new.updated_at at time zone 'UTC')::date;
      if new.vote_type = 'gas' then
        d_gas := d_gas + 1;
        d_trend := d_trend + private.votes_trend_weight(new.updated_at);
      else
        d_pass := d_pass + 1;
        d_trend := d_trend - private.votes_trend_weight(new.updated_at);
      end if;
      insert into public.product_vote_days as d (product_id, day, gas, pass)
      values (new.product_id, v_day, (new.vote_type = 'gas')::integer, (new.vote_type = 'pass')::integer)
      on conflict (product_id, day) do update
        set gas = d.gas + excluded.gas, pass = d.pass + excluded.pass;
    elsif new.status = 'pending' then
      d_pending := d_pending + 1;
    elsif new.status = 'held' then
      d_held := d_held + 1;
    end if;
  end if;
  update public.product_tallies t set
    gas = t.gas + d_gas,
    pass = t.pass + d_pass,
    pending = t.pending + d_pending,
    held = t.held + d_held,
    trend = t.trend + d_trend,
    last_vote_at = case when tg_op = 'DELETE' then t.last_vote_at else now() end,
    updated_at = now()
  where t.product_id = v_product;
  return null;
end
$$;
revoke all on function private.votes_tally() from public;

create or replace trigger guard_immutable before update on public.product_votes
  for each row execute function private.guard_immutable('user_id', 'product_id');
create or replace trigger votes_before_write before insert or update on public.product_votes
  for each row execute function private.votes_before_write();
create or replace trigger votes_after_insert after insert on public.product_votes
  for each row execute function private.votes_after_insert();
create or replace trigger votes_tally after insert or update or delete on public.product_votes
  for each row execute function private.votes_tally();

-- Pending votes whose accounts are now old enough start counting (also after the threshold changed);
-- ring signals older than 30 days are deleted. Run by the server every minute; safe to run anywhere
-- at once. Returns how many votes started counting.
create or replace function private.votes_housekeeping() returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_age interval := coalesce((select s.min_account_age from private.votes_settings s where s.id), interval '24 hours');
  v_promoted integer;
begin
  with due as (
    select v.id, u.created_at + v_age as counts_from
    from public.product_votes v join auth.users u on u.id = v.user_id
    where v.status = 'pending'
    for update of v skip locked
  )
  update public.product_votes v set
    counts_from = due.counts_from,
    status = case when due.counts_from <= now() then 'counted' else 'pending' end
  from due
  where v.id = due.id and (v.counts_from is distinct from due.counts_from or due.counts_from <= now());
  get diagnostics v_promoted = row_count;
  delete from private.votes_signals s where s.voted_at < now() - interval '30 days';
  return v_promoted;
end
$$;
revoke all on function private.votes_housekeeping() from public;
