-- Security events (product §security-events, §rpc log_security_event): visitors may only write low-risk
-- events (decision 094). Redefined here (decision 089): first created in
-- 20261121100700_security_events_and_validation.sql.

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
