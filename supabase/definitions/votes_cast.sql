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

-- Replaced by private.votes_signal() (the hash is computed once per transaction).
drop function if exists private.votes_address_hash(inet);

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

-- The caller's ring signal for this transaction: the keyed hash of its client address and its
-- account's creation time, or null when there is none to store (no address, ring detection off, a
-- server-side session). Computed once per transaction and kept in a transaction-local setting, so a
-- vote's two triggers (and several votes in one request) do not repeat the work.
create or replace function private.votes_signal(out address_hash text, out account_created_at timestamptz)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_cached text := current_setting('highgrade.votes_signal', true);
  v_ip inet;
begin
  if v_cached is not null and v_cached <> '' then
    if v_cached <> '-' then
      address_hash := split_part(v_cached, '|', 1);
      account_created_at := split_part(v_cached, '|', 2)::timestamptz;
    end if;
    return;
  end if;
  v_ip := private.request_ip();
  if v_ip is not null and coalesce((select s.ring_detection from private.votes_settings s where s.id), true) then
    select encode(sha256(k.key || convert_to('vote-address:' || host(v_ip), 'UTF8') || k.key), 'hex'), u.created_at
    into address_hash, account_created_at
    from private.keyed_hash_key k left join auth.users u on u.id = auth.uid()
    where k.id;
  end if;
  perform set_config('highgrade.votes_signal',
    case when address_hash is null or account_created_at is null then '-'
         else address_hash || '|' || account_created_at::text end, true);
  if account_created_at is null then
    address_hash := null;
  end if;
end
$$;
revoke all on function private.votes_signal() from public;

create or replace function private.votes_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_product_found boolean;
  v_archived timestamptz;
  v_confirmed timestamptz;
  v_created timestamptz;
  v_min_age interval;
  v_signal record;
  v_ring boolean;
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
  -- The product, the voter and the settings in one statement.
  select p.id is not null, p.archived_at, u.email_confirmed_at, u.created_at, s.min_account_age
  into v_product_found, v_archived, v_confirmed, v_created, v_min_age
  from private.votes_settings s
  left join public.products p on p.id = new.product_id
  left join auth.users u on u.id = v_uid
  where s.id;
  -- (An id of the wrong shape gets the column's own constraint error.)
  if not coalesce(v_product_found, false) and private.is_product_id(new.product_id) then
    raise exception using errcode = 'foreign_key_violation', message = 'There is no product with this id.';
  end if;
  if v_archived is not null then
    raise exception using errcode = 'insufficient_privilege',
      message = 'This product is archived: voting on it has closed.';
  end if;
  if v_confirmed is null then
    raise exception using errcode = 'insufficient_privilege',
      message = 'Confirm your email address before voting.',
      hint = 'Open the link in the confirmation email we sent you.';
  end if;

  new.counts_from := v_created + coalesce(v_min_age, interval '24 hours');
  new.status := case when new.counts_from <= now() then 'counted' else 'pending' end;
  new.hold_id := null;

  v_signal := private.votes_signal();
  if v_signal.address_hash is not null then
    select count(distinct s.user_id) + 1 >= r.ring_size into v_ring
    from private.votes_ring_rule() r
    left join private.votes_signals s
      on s.product_id = new.product_id and s.address_hash = v_signal.address_hash
      and s.voted_at > now() - r.ring_window and s.user_id <> v_uid
      and s.account_created_at between v_created - r.ring_account_span and v_created + r.ring_account_span
    group by r.ring_size;
    if v_ring then
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
  v_signal record;
  v_rule record;
begin
  if private.caller_is_privileged() then
    return null;
  end if;
  v_signal := private.votes_signal();
  if v_signal.address_hash is null then
    return null;
  end if;
  insert into private.votes_signals (vote_id, user_id, product_id, address_hash, account_created_at)
  values (new.id, new.user_id, new.product_id, v_signal.address_hash, v_signal.account_created_at)
  on conflict (vote_id) do nothing;

  if new.status = 'held' and new.hold_id is not null then
    select * into v_rule from private.votes_ring_rule();
    update public.product_votes v set status = 'held', hold_id = new.hold_id
    from private.votes_signals s
    where s.vote_id = v.id and v.id <> new.id and v.hold_id is null and v.status in ('counted', 'pending')
      and s.product_id = new.product_id and s.address_hash = v_signal.address_hash
      and s.voted_at > now() - v_rule.ring_window
      and s.account_created_at between v_signal.account_created_at - v_rule.ring_account_span
                                   and v_signal.account_created_at + v_rule.ring_account_span;
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
    updated_at = now(),
    live_pending = true
  where t.product_id = v_product;
  return null;
end
$$;
revoke all on function private.votes_tally() from public;

-- Open pages follow tallies live (decision 156): every server process calls this each second. It
-- clears the mark the tally trigger set and broadcasts the rows' values on the public topic
-- `product-tallies` (event `tallies`, payload `{"tallies": [...]}`, at most 100 products per message).
-- A tally a vote is changing right now is locked by that vote: the update waits for its commit and
-- sends the committed values; a vote committing after this statement's scan marks its row again for
-- the next run. Two processes running it at once send each change once. Returns the products sent.
--
-- The brands of those products get their tallies recomputed here too (decision 159): a brand's row
-- summed from its products, once a second, instead of moved by every vote, where it was one row that
-- every vote on any of the brand's products had to lock until its commit.
create or replace function private.votes_broadcast_tallies() returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_rows jsonb;
  v_ids text[];
  v_batch jsonb;
begin
  with changed as (
    update public.product_tallies t set live_pending = false
    where t.live_pending
    returning t.product_id, t.gas, t.pass, t.pending, t.held, t.trend
  )
  select jsonb_agg(jsonb_build_object('product_id', c.product_id, 'gas', c.gas, 'pass', c.pass,
      'pending', c.pending, 'held', c.held, 'trend', c.trend) order by c.product_id),
    array_agg(c.product_id)
  into v_rows, v_ids
  from changed c;
  if v_ids is null then
    return 0;
  end if;
  for v_batch in
    select jsonb_agg(x.row order by x.n) from jsonb_array_elements(v_rows) with ordinality as x(row, n)
    group by (x.n - 1) / 100 order by (x.n - 1) / 100
  loop
    perform realtime.send(jsonb_build_object('tallies', v_batch), 'tallies', 'product-tallies', false);
  end loop;
  perform private.brands_refresh_tally(b.brand_id)
  from (
    select distinct p.brand_id from public.products p
    where p.id = any (v_ids) and p.brand_id is not null
    order by p.brand_id
  ) b;
  return cardinality(v_ids);
end
$$;
revoke all on function private.votes_broadcast_tallies() from public;

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
