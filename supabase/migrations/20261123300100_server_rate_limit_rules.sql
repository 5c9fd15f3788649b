-- The advisory rate-limit procedures apply the server's limits, not the caller's
-- (docs/decisions/094-write-quotas.md), and visitors may log only low-risk security events.
--
-- progressive_rate_limit_check and global_rate_limit_check keep spec §7's arguments (the web app and
-- supabase-js send them by name) but the limits come from private.rate_limit_rules: a caller passing
-- base_max_attempts 10000 gets the same answer as one passing 5. Unknown action names fall back to the
-- '*' rule. Operators tune the rules with plain SQL (supabase/README.md).
--
-- Redefined here: public.progressive_rate_limit_check, public.global_rate_limit_check,
-- public.log_security_event, private.guard_security_event.

create table if not exists private.rate_limit_rules (
  action_type text primary key
    constraint rate_limit_rules_action_type_format check (action_type = '*' or action_type ~ '^[A-Za-z][A-Za-z0-9_.:-]{0,63}$'),
  -- Attempts per window of the subject (the member, or the visitor's address when signed out).
  max_attempts integer not null constraint rate_limit_rules_max_attempts_range check (max_attempts between 1 and 10000),
  window_minutes integer not null constraint rate_limit_rules_window_minutes_range check (window_minutes between 1 and 1440),
  -- global_rate_limit_check: attempts per window of one client address, whoever is signed in.
  max_ip_attempts integer not null constraint rate_limit_rules_max_ip_attempts_range check (max_ip_attempts between 1 and 1000000),
  -- progressive_rate_limit_check: the first wait after a violation (doubling with each further one).
  base_delay_seconds integer not null default 60 constraint rate_limit_rules_base_delay_range check (base_delay_seconds between 1 and 86400),
  updated_at timestamptz not null default now()
);
revoke all on table private.rate_limit_rules from public, anon, authenticated, service_role;

-- Spec §9: sign-up 3, sign-in 5, social 3, reset 2 an hour (§8's waits: 60 s, reset 300 s); reports 3
-- per 15 minutes per user and 10 per address. The export's row is rewritten from
-- GDPR_EXPORT_LIMIT_PER_HOUR when the server starts.
insert into private.rate_limit_rules (action_type, max_attempts, window_minutes, max_ip_attempts, base_delay_seconds)
values
  ('auth_signup', 3, 60, 30, 60),
  ('auth_signin', 5, 60, 50, 60),
  ('auth_oauth', 3, 60, 30, 60),
  ('auth_reset', 2, 60, 20, 300),
  ('scammer_report', 3, 15, 10, 60),
  ('functions:gdpr_data_export', 5, 60, 50, 60),
  ('*', 5, 60, 50, 60)
on conflict (action_type) do nothing;

-- The rule for an action: its own row, else the '*' row, else the '*' row's shipped values.
create or replace function private.rate_limit_rule(action text) returns private.rate_limit_rules
language plpgsql stable set search_path = ''
as $$
declare
  v_rule private.rate_limit_rules%rowtype;
begin
  select * into v_rule from private.rate_limit_rules r
  where r.action_type in (action, '*') order by r.action_type = '*' limit 1;
  if not found then
    v_rule := row('*', 5, 60, 50, 60, now())::private.rate_limit_rules;
  end if;
  return v_rule;
end
$$;
revoke all on function private.rate_limit_rule(text) from public;

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
  -- The arguments keep their spec §7 contract (a bad one is the caller's error), but the limits are the
  -- server's whatever they say.
  perform private.check_rate_limit_arguments(action_type_param, base_max_attempts, time_window_minutes);
  v_rule := private.rate_limit_rule(action_type_param);
  v_subject := case
    when v_uid is not null then 'user:' || v_uid::text
    when v_ip is not null then 'ip:' || host(v_ip)
  end;
  if v_subject is null then
    -- Nobody to attribute the attempt to (a server-side session without a client): let it proceed, as
    -- a failed check does in the web app (§8).
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
-- As before (20261121100500), with the server's rule for the user, the address and the window.
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
  -- A browser cannot choose the address it is counted under; a server-side caller names its client's.
  v_ip := case when private.caller_is_privileged() then coalesce(v_given, private.request_ip())
               else coalesce(private.request_ip(), v_given) end;

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
  end if;

  return private.record_attempt(action_type_param, v_uid, v_ip);
end
$$;

-- ---------------------------------------------------------------------------------------------------
-- Security events: a visitor (anon) may only log low-risk events. A higher level they ask for is kept
-- as `claimed_risk_level` in additional_data (when it fits), so the claim is not lost, but nobody
-- signed out can raise an alert. Members and the server log at any level, as before.
-- ---------------------------------------------------------------------------------------------------

create or replace function private.visitor_event_data(data jsonb, risk_level text) returns jsonb
language sql immutable set search_path = ''
as $$
  select case
    when coalesce(risk_level, 'low') = 'low' then data
    when octet_length((data || jsonb_build_object('claimed_risk_level', risk_level))::text) <= 8192
      then data || jsonb_build_object('claimed_risk_level', risk_level)
    else data
  end
$$;
revoke all on function private.visitor_event_data(jsonb, text) from public;
grant execute on function private.visitor_event_data(jsonb, text) to anon, authenticated, service_role;

create or replace function private.guard_security_event() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if private.is_privileged() then
    return new;
  end if;
  if new.ip is not null then
    raise exception using errcode = 'insufficient_privilege',
      message = 'security_events.ip is set by the server', hint = 'Leave ip out of the request.';
  end if;
  new.ip := private.request_ip();
  if current_user = 'anon' and new.risk_level is distinct from 'low' then
    new.additional_data := private.visitor_event_data(new.additional_data, new.risk_level);
    new.risk_level := 'low';
  end if;
  -- A log anyone may write must not be floodable: 60 events a minute per user and per address.
  perform private.enforce_insert_rate('insert:security_events', 60, 60, interval '1 minute');
  return new;
end
$$;
revoke all on function private.guard_security_event() from public;

create or replace function public.log_security_event(
  type text,
  action text,
  category text default 'general',
  description text default null,
  additional_data jsonb default '{}'::jsonb,
  risk_level text default 'low'
) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_ip inet := private.request_ip();
  v_visitor boolean := v_uid is null and not private.caller_is_privileged();
  v_data jsonb;
  v_risk text;
  v_id uuid;
begin
  if log_security_event.type is null or log_security_event.action is null then
    raise exception using errcode = 'null_value_not_allowed', message = 'type and action are required';
  end if;
  if private.trimmed_length(log_security_event.type) not between 1 and 100
    or private.trimmed_length(log_security_event.action) not between 1 and 100
    or private.trimmed_length(coalesce(log_security_event.category, 'general')) not between 1 and 100 then
    raise exception using errcode = 'invalid_parameter_value',
      message = 'type, category and action must be 1 to 100 characters';
  end if;
  if char_length(log_security_event.description) > 2000 then
    raise exception using errcode = 'invalid_parameter_value', message = 'description must be at most 2000 characters';
  end if;
  if log_security_event.additional_data is not null and (
    jsonb_typeof(log_security_event.additional_data) <> 'object'
    or octet_length(log_security_event.additional_data::text) > 8192
  ) then
    raise exception using errcode = 'invalid_parameter_value',
      message = 'additional_data must be a JSON object of at most 8 KB';
  end if;
  if coalesce(log_security_event.risk_level, 'low') not in ('low', 'medium', 'high', 'critical') then
    raise exception using errcode = 'invalid_parameter_value',
      message = 'risk_level must be low, medium, high or critical';
  end if;

  v_data := coalesce(log_security_event.additional_data, '{}'::jsonb);
  v_risk := coalesce(log_security_event.risk_level, 'low');
  if v_visitor and v_risk <> 'low' then
    v_data := private.visitor_event_data(v_data, v_risk);
    v_risk := 'low';
  end if;

  if not private.caller_is_privileged() then
    begin
      perform private.enforce_insert_rate('insert:security_events', 60, 60, interval '1 minute');
    exception when sqlstate 'PGRST' then
      return null; -- over the flood limit: dropped, so logging never breaks the action being logged
    end;
  end if;

  insert into public.security_events (type, category, action, description, additional_data, risk_level, user_id, ip)
  values (
    btrim(log_security_event.type),
    btrim(coalesce(log_security_event.category, 'general')),
    btrim(log_security_event.action),
    log_security_event.description,
    v_data,
    v_risk,
    v_uid,
    v_ip
  )
  returning id into v_id;
  return v_id;
end
$$;

revoke all on function public.log_security_event(text, text, text, text, jsonb, text) from public;
grant execute on function public.log_security_event(text, text, text, text, jsonb, text)
  to anon, authenticated, service_role;
