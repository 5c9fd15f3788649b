-- The advisory rate-limit procedures of product §rpc and the insert-rate guard the product's tables call.
-- Redefined here (decision 089): first created in 20261121100500_rate_limits.sql, where triggers and
-- policies of that time needed them; this file is the live version. The server's limits win over any
-- arguments a caller sends (decision 094).

-- ---------------------------------------------------------------------------------------------------
-- progressive_rate_limit_check(action_type_param, base_max_attempts, time_window_minutes)
--   → {"allowed", "delay_seconds", "remaining_attempts", "violation_count"}
-- As before (20261121100500), with the server's rule, and: a block that has run out wipes the slate.
-- Attempts made before it ended no longer count, so a person who waited as told gets their attempts
-- back instead of an immediate second, doubled block; a further violation still doubles the wait.
-- Calls while blocked are refused with the time left and change nothing.
-- ---------------------------------------------------------------------------------------------------
create or replace function public.progressive_rate_limit_check(
  action_type_param text,
  base_max_attempts integer default 5,
  time_window_minutes integer default 60
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_rule private.rate_limit_rules;
  v_uid uuid := auth.uid();
  v_ip inet := private.request_ip();
  v_subject text;
  v_penalty private.rate_limit_penalties%rowtype;
  v_has_penalty boolean;
  v_since timestamptz;
  v_attempts integer;
  v_violations integer;
  v_delay integer;
begin
  -- The arguments keep their product §rpc contract (a bad one is the caller's error), but the limits are the
  -- server's whatever they say.
  perform private.check_rate_limit_arguments(action_type_param, base_max_attempts, time_window_minutes);
  v_rule := private.rate_limit_rule(action_type_param);
  v_subject := case
    when v_uid is not null then 'user:' || v_uid::text
    when v_ip is not null then 'ip:' || host(v_ip)
  end;
  if v_subject is null then
    -- Nobody to attribute the attempt to (a server-side session without a client): let it proceed, as
    -- a failed check does in the web app (§auth-rules).
    return jsonb_build_object('allowed', true, 'delay_seconds', 0,
      'remaining_attempts', v_rule.max_attempts, 'violation_count', 0);
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

  v_since := now() - make_interval(mins => v_rule.window_minutes);
  if v_has_penalty and v_penalty.blocked_until > v_since then
    v_since := v_penalty.blocked_until;
  end if;
  select count(*) into v_attempts from private.rate_limit_attempts a
  where a.action_type = action_type_param
    and a.created_at > v_since
    and (case when v_uid is not null then a.user_id = v_uid else a.ip = v_ip and a.user_id is null end);

  if v_attempts >= v_rule.max_attempts then
    v_violations := case
      when v_has_penalty and v_penalty.last_violation_at > now() - interval '1 day' then v_penalty.violation_count + 1
      else 1
    end;
    v_delay := least(v_rule.base_delay_seconds * power(2, least(v_violations - 1, 20)), 86400)::integer;
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
    'remaining_attempts', v_rule.max_attempts - v_attempts - 1,
    'violation_count', case when v_has_penalty then v_penalty.violation_count else 0 end);
end
$$;

-- ---------------------------------------------------------------------------------------------------
-- global_rate_limit_check(action_type_param, max_attempts, time_window_minutes, ip_address,
--   max_ip_attempts) → boolean
-- As before (20261121100500), with the server's rule for the user, the address and the window, and
-- (decision 190): the address is always the one the server saw (behind TRUST_PROXY the forwarded one),
-- for every role — `ip_address` stays accepted (and checked) but counts only in a session that has no
-- request at all (the server's own SQL). A caller who is not signed in is counted like
-- progressive_rate_limit_check counts one: by its address, against the rule's max_attempts (visitor
-- attempts at that address), besides the address-wide max_ip_attempts every caller there shares.
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
  v_rule private.rate_limit_rules;
  v_uid uuid := auth.uid();
  v_given inet;
  v_ip inet;
  v_count integer;
begin
  perform private.check_rate_limit_arguments(action_type_param, max_attempts, time_window_minutes, max_ip_attempts);
  v_rule := private.rate_limit_rule(action_type_param);
  if ip_address is not null then
    v_given := private.parse_ip(ip_address);
    if v_given is null then
      raise exception using errcode = 'invalid_parameter_value', message = 'ip_address must be an IP address';
    end if;
  end if;
  -- Nobody chooses the address they are counted under: the request's wins. Only SQL run without a
  -- request (no headers: the server's own code) names its client's.
  v_ip := coalesce(private.request_ip(), v_given);

  if v_uid is null and v_ip is null then
    return true; -- nobody to attribute the attempt to (see progressive_rate_limit_check)
  end if;

  -- Always user before address, so two sessions never wait for each other's locks crosswise.
  if v_uid is not null then
    perform private.lock_rate_limit(action_type_param, 'user:' || v_uid::text);
    select count(*) into v_count from private.rate_limit_attempts a
    where a.action_type = action_type_param and a.user_id = v_uid
      and a.created_at > now() - make_interval(mins => v_rule.window_minutes);
    if v_count >= v_rule.max_attempts then
      return false;
    end if;
  end if;
  if v_ip is not null then
    perform private.lock_rate_limit(action_type_param, 'ip:' || host(v_ip));
    select count(*) into v_count from private.rate_limit_attempts a
    where a.action_type = action_type_param and a.ip = v_ip
      and a.created_at > now() - make_interval(mins => v_rule.window_minutes);
    if v_count >= v_rule.max_ip_attempts then
      return false;
    end if;
    if v_uid is null then
      -- A visitor is its address: the subject's limit applies to the visitors' attempts there.
      select count(*) into v_count from private.rate_limit_attempts a
      where a.action_type = action_type_param and a.ip = v_ip and a.user_id is null
        and a.created_at > now() - make_interval(mins => v_rule.window_minutes);
      if v_count >= v_rule.max_attempts then
        return false;
      end if;
    end if;
  end if;

  return private.record_attempt(action_type_param, v_uid, v_ip);
end
$$;

create or replace function private.enforce_insert_rate(
  action_type text, max_per_user integer, max_per_ip integer, time_window interval
) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_ip inet := private.request_ip();
  v_count integer;
  v_oldest timestamptz;
  v_what text := regexp_replace(action_type, '^insert:', '');
begin
  if v_uid is not null then
    perform private.lock_rate_limit(action_type, 'user:' || v_uid::text);
    select count(*), min(a.created_at) into v_count, v_oldest from private.rate_limit_attempts a
    where a.action_type = enforce_insert_rate.action_type and a.user_id = v_uid and a.created_at > now() - time_window;
    if v_count >= max_per_user then
      perform private.raise_rate_limited(
        format('rate limit reached for %s: at most %s per %s per user.', v_what, max_per_user,
          private.interval_words(time_window)),
        null, greatest(1, ceil(extract(epoch from v_oldest + time_window - now())))::integer);
    end if;
  end if;
  if v_ip is not null then
    perform private.lock_rate_limit(action_type, 'ip:' || host(v_ip));
    select count(*), min(a.created_at) into v_count, v_oldest from private.rate_limit_attempts a
    where a.action_type = enforce_insert_rate.action_type and a.ip = v_ip and a.created_at > now() - time_window;
    if v_count >= max_per_ip then
      perform private.raise_rate_limited(
        format('rate limit reached for %s: at most %s per %s per client address.', v_what, max_per_ip,
          private.interval_words(time_window)),
        null, greatest(1, ceil(extract(epoch from v_oldest + time_window - now())))::integer);
    end if;
  end if;
  if (v_uid is not null or v_ip is not null) and not private.record_attempt(action_type, v_uid, v_ip) then
    perform private.raise_rate_limited(
      format('rate limit reached for %s: too many attempts from this user or address in the last hour.', v_what),
      null, 3600);
  end if;
end
$$;
