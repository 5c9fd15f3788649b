-- HighGrade product schema, part 6: server-side rate limits (spec §7 "Remote procedures", §9).
--
-- The state lives in tables so every server process (and a hosted project) shares it (design.md
-- "Scale path", decision 034). It sits in `private`: clients reach it only through the functions
-- below, which are SECURITY DEFINER and validate every argument.

create table if not exists private.rate_limit_attempts (
  id bigint generated always as identity primary key,
  action_type text not null,
  user_id uuid references auth.users (id) on delete cascade,
  ip inet,
  created_at timestamptz not null default now()
);
create index if not exists rate_limit_attempts_user_idx
  on private.rate_limit_attempts (action_type, user_id, created_at) where user_id is not null;
create index if not exists rate_limit_attempts_ip_idx
  on private.rate_limit_attempts (action_type, ip, created_at) where ip is not null;
create index if not exists rate_limit_attempts_created_at_idx on private.rate_limit_attempts (created_at);
-- Across actions, for the per-subject budget below (and the cascade on account deletion).
create index if not exists rate_limit_attempts_user_id_created_at_idx
  on private.rate_limit_attempts (user_id, created_at) where user_id is not null;
create index if not exists rate_limit_attempts_ip_created_at_idx
  on private.rate_limit_attempts (ip, created_at) where ip is not null;

-- Progressive limits remember violations: each new one within a day doubles the delay.
create table if not exists private.rate_limit_penalties (
  action_type text not null,
  subject text not null,
  user_id uuid references auth.users (id) on delete cascade,
  violation_count integer not null check (violation_count > 0),
  last_violation_at timestamptz not null,
  blocked_until timestamptz not null,
  primary key (action_type, subject)
);
create index if not exists rate_limit_penalties_user_id_idx
  on private.rate_limit_penalties (user_id) where user_id is not null;
create index if not exists rate_limit_penalties_last_violation_at_idx
  on private.rate_limit_penalties (last_violation_at);

revoke all on table private.rate_limit_attempts, private.rate_limit_penalties
  from public, anon, authenticated, service_role;

-- Argument checks shared by the rate-limit functions; a bad argument is the caller's error (22xxx,
-- HTTP 400 through the Data API), never a silent allow.
create or replace function private.check_rate_limit_arguments(
  action_type text, max_attempts integer, window_minutes integer, max_ip_attempts integer default 1
) returns void
language plpgsql immutable set search_path = ''
as $$
begin
  if action_type is null or max_attempts is null or window_minutes is null then
    raise exception using errcode = 'null_value_not_allowed',
      message = 'action type, maximum attempts and time window are required';
  end if;
  if action_type !~ '^[A-Za-z][A-Za-z0-9_.:-]{0,63}$' then
    raise exception using errcode = 'invalid_parameter_value',
      message = 'action_type_param must be 1 to 64 letters, digits, _ . : or -, starting with a letter';
  end if;
  if max_attempts not between 1 and 10000 then
    raise exception using errcode = 'invalid_parameter_value',
      message = 'the maximum number of attempts must be between 1 and 10000';
  end if;
  if window_minutes not between 1 and 1440 then
    raise exception using errcode = 'invalid_parameter_value',
      message = 'time_window_minutes must be between 1 and 1440';
  end if;
  if max_ip_attempts is not null and max_ip_attempts not between 1 and 1000000 then
    raise exception using errcode = 'invalid_parameter_value',
      message = 'max_ip_attempts must be between 1 and 1000000';
  end if;
end
$$;

-- Serialises the checks for one (action, subject) across sessions and server processes, so two
-- simultaneous attempts cannot both take the last slot. Released at the end of the transaction.
create or replace function private.lock_rate_limit(action_type text, subject text) returns void
language sql volatile set search_path = ''
as $$
  select pg_advisory_xact_lock(hashtextextended('highgrade.rate_limit|' || action_type || '|' || subject, 0))
$$;

-- Attempts older than the longest window (one day) no longer count; dropping them now and then keeps
-- the table small without a scheduler.
create or replace function private.prune_rate_limits() returns void
language sql volatile set search_path = ''
as $$
  delete from private.rate_limit_attempts where created_at < now() - interval '1 day';
  delete from private.rate_limit_penalties
  where blocked_until < now() - interval '1 day' and last_violation_at < now() - interval '1 day';
$$;

-- Records one attempt. Callers choose their limits (up to 10 000 per user and 1 000 000 per address),
-- so without a ceiling a caller could grow the table at will: whatever the limits, one user leaves at
-- most 1 000 and one address 2 000 recorded attempts an hour across all actions. Beyond that nothing is
-- recorded and the check fails (false).
create or replace function private.record_attempt(action_type text, uid uuid, ip inet) returns boolean
language plpgsql volatile set search_path = ''
as $$
begin
  if uid is not null and (
    select count(*) from (
      select 1 from private.rate_limit_attempts a
      where a.user_id = uid and a.created_at > now() - interval '1 hour' limit 1000
    ) recent
  ) >= 1000 then
    return false;
  end if;
  if ip is not null and (
    select count(*) from (
      select 1 from private.rate_limit_attempts a
      where a.ip = record_attempt.ip and a.created_at > now() - interval '1 hour' limit 2000
    ) recent
  ) >= 2000 then
    return false;
  end if;
  insert into private.rate_limit_attempts (action_type, user_id, ip) values (action_type, uid, ip);
  if random() < 0.01 then
    perform private.prune_rate_limits();
  end if;
  return true;
end
$$;

-- ---------------------------------------------------------------------------------------------------
-- progressive_rate_limit_check(action_type_param, base_max_attempts, time_window_minutes)
--   → {"allowed": bool, "delay_seconds": int, "remaining_attempts": int, "violation_count": int}
-- Counts the caller's attempts (the user when signed in, else the visitor's address) in the window. Over
-- the limit is a violation: blocked for a delay that starts at the spec's wait (60 s; 300 s for
-- password resets, §8) and doubles with each further violation within a day, up to a day. Calls while
-- blocked are refused with the time left and do not count.
-- ---------------------------------------------------------------------------------------------------
create or replace function public.progressive_rate_limit_check(
  action_type_param text,
  base_max_attempts integer default 5,
  time_window_minutes integer default 60
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_ip inet := private.request_ip();
  v_subject text;
  v_penalty private.rate_limit_penalties%rowtype;
  v_has_penalty boolean;
  v_attempts integer;
  v_violations integer;
  v_base_delay integer := case when action_type_param = 'auth_reset' then 300 else 60 end;
  v_delay integer;
begin
  perform private.check_rate_limit_arguments(action_type_param, base_max_attempts, time_window_minutes);
  v_subject := case
    when v_uid is not null then 'user:' || v_uid::text
    when v_ip is not null then 'ip:' || host(v_ip)
  end;
  if v_subject is null then
    -- Nobody to attribute the attempt to (a server-side session without a client): let it proceed, as
    -- a failed check does in the web app (§8).
    return jsonb_build_object('allowed', true, 'delay_seconds', 0,
      'remaining_attempts', base_max_attempts, 'violation_count', 0);
  end if;

  perform private.lock_rate_limit(action_type_param, v_subject);
  select * into v_penalty from private.rate_limit_penalties p
  where p.action_type = action_type_param and p.subject = v_subject;
  v_has_penalty := found;

  if v_has_penalty and v_penalty.blocked_until > now() then
    return jsonb_build_object('allowed', false,
      'delay_seconds', greatest(1, ceil(extract(epoch from v_penalty.blocked_until - now())))::integer,
      'remaining_attempts', 0, 'violation_count', v_penalty.violation_count);
  end if;

  select count(*) into v_attempts from private.rate_limit_attempts a
  where a.action_type = action_type_param
    and a.created_at > now() - make_interval(mins => time_window_minutes)
    and (case when v_uid is not null then a.user_id = v_uid else a.ip = v_ip and a.user_id is null end);

  if v_attempts >= base_max_attempts then
    v_violations := case
      when v_has_penalty and v_penalty.last_violation_at > now() - interval '1 day' then v_penalty.violation_count + 1
      else 1
    end;
    v_delay := least(v_base_delay * power(2, least(v_violations - 1, 20)), 86400)::integer;
    insert into private.rate_limit_penalties as p
      (action_type, subject, user_id, violation_count, last_violation_at, blocked_until)
    values (action_type_param, v_subject, v_uid, v_violations, now(), now() + make_interval(secs => v_delay))
    on conflict (action_type, subject) do update
      set violation_count = excluded.violation_count,
          last_violation_at = excluded.last_violation_at,
          blocked_until = excluded.blocked_until;
    return jsonb_build_object('allowed', false, 'delay_seconds', v_delay,
      'remaining_attempts', 0, 'violation_count', v_violations);
  end if;

  if not private.record_attempt(action_type_param, v_uid, v_ip) then
    return jsonb_build_object('allowed', false, 'delay_seconds', 3600,
      'remaining_attempts', 0, 'violation_count', case when v_has_penalty then v_penalty.violation_count else 0 end);
  end if;
  return jsonb_build_object('allowed', true, 'delay_seconds', 0,
    'remaining_attempts', base_max_attempts - v_attempts - 1,
    'violation_count', case when v_has_penalty then v_penalty.violation_count else 0 end);
end
$$;

-- ---------------------------------------------------------------------------------------------------
-- global_rate_limit_check(action_type_param, max_attempts, time_window_minutes, ip_address,
--   max_ip_attempts) → boolean
-- True, and the attempt is recorded, while the signed-in user has fewer than max_attempts and the
-- client address fewer than max_ip_attempts (default ten times max_attempts) attempts in the window.
-- The address is the one the API layer recorded for the request; a browser cannot choose it (it could
-- otherwise escape the per-address limit), only server-side callers may pass ip_address for a client.
-- ---------------------------------------------------------------------------------------------------
create or replace function public.global_rate_limit_check(
  action_type_param text,
  max_attempts integer default 5,
  time_window_minutes integer default 60,
  ip_address text default null,
  max_ip_attempts integer default null
) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_given inet;
  v_ip inet;
  v_max_ip integer;
  v_count integer;
begin
  perform private.check_rate_limit_arguments(action_type_param, max_attempts, time_window_minutes, max_ip_attempts);
  if ip_address is not null then
    v_given := private.parse_ip(ip_address);
    if v_given is null then
      raise exception using errcode = 'invalid_parameter_value', message = 'ip_address must be an IP address';
    end if;
  end if;
  v_ip := case when private.caller_is_privileged() then coalesce(v_given, private.request_ip())
               else coalesce(private.request_ip(), v_given) end;
  v_max_ip := coalesce(max_ip_attempts, least(max_attempts * 10, 1000000));

  if v_uid is null and v_ip is null then
    return true; -- nobody to attribute the attempt to (see progressive_rate_limit_check)
  end if;

  -- Always user before address, so two sessions never wait for each other's locks crosswise.
  if v_uid is not null then
    perform private.lock_rate_limit(action_type_param, 'user:' || v_uid::text);
    select count(*) into v_count from private.rate_limit_attempts a
    where a.action_type = action_type_param and a.user_id = v_uid
      and a.created_at > now() - make_interval(mins => time_window_minutes);
    if v_count >= max_attempts then
      return false;
    end if;
  end if;
  if v_ip is not null then
    perform private.lock_rate_limit(action_type_param, 'ip:' || host(v_ip));
    select count(*) into v_count from private.rate_limit_attempts a
    where a.action_type = action_type_param and a.ip = v_ip
      and a.created_at > now() - make_interval(mins => time_window_minutes);
    if v_count >= v_max_ip then
      return false;
    end if;
  end if;

  return private.record_attempt(action_type_param, v_uid, v_ip);
end
$$;

-- For BEFORE INSERT triggers of tables browsers write directly (bookings, security_events): the same
-- bookkeeping under a table-specific action, refusing with SQLSTATE PT429 (PostgREST answers HTTP 429;
-- the message carries "rate limit", which the web app maps to "Too many requests", spec §8).
create or replace function private.enforce_insert_rate(
  action_type text, max_per_user integer, max_per_ip integer, time_window interval
) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_ip inet := private.request_ip();
  v_count integer;
begin
  if v_uid is not null then
    perform private.lock_rate_limit(action_type, 'user:' || v_uid::text);
    select count(*) into v_count from private.rate_limit_attempts a
    where a.action_type = enforce_insert_rate.action_type and a.user_id = v_uid and a.created_at > now() - time_window;
    if v_count >= max_per_user then
      raise exception using errcode = 'PT429', message = format('rate limit exceeded for %s', action_type),
        detail = format('At most %s per %s per user.', max_per_user, time_window);
    end if;
  end if;
  if v_ip is not null then
    perform private.lock_rate_limit(action_type, 'ip:' || host(v_ip));
    select count(*) into v_count from private.rate_limit_attempts a
    where a.action_type = enforce_insert_rate.action_type and a.ip = v_ip and a.created_at > now() - time_window;
    if v_count >= max_per_ip then
      raise exception using errcode = 'PT429', message = format('rate limit exceeded for %s', action_type),
        detail = format('At most %s per %s per client address.', max_per_ip, time_window);
    end if;
  end if;
  if (v_uid is not null or v_ip is not null) and not private.record_attempt(action_type, v_uid, v_ip) then
    raise exception using errcode = 'PT429', message = format('rate limit exceeded for %s', action_type),
      detail = 'Too many attempts from this user or address in the last hour.';
  end if;
end
$$;

revoke all on function
  private.check_rate_limit_arguments(text, integer, integer, integer),
  private.lock_rate_limit(text, text),
  private.prune_rate_limits(),
  private.record_attempt(text, uuid, inet),
  private.enforce_insert_rate(text, integer, integer, interval)
from public;
grant execute on function private.enforce_insert_rate(text, integer, integer, interval)
  to anon, authenticated, service_role;

revoke all on function
  public.progressive_rate_limit_check(text, integer, integer),
  public.global_rate_limit_check(text, integer, integer, text, integer)
from public;
grant execute on function
  public.progressive_rate_limit_check(text, integer, integer),
  public.global_rate_limit_check(text, integer, integer, text, integer)
to anon, authenticated, service_role;
