-- HighGrade product schema, part 8: the security log (spec §3 "Security event", §7 log_security_event)
-- and server-side content validation (§5, §7 advanced_content_validation).

-- ---------------------------------------------------------------------------------------------------
-- security_events: append-only. Browsers (signed in or not) add events about themselves; admins read;
-- nobody edits or deletes them except the server's roles. The client address and the time are the
-- server's, never the browser's.
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.security_events (
  id uuid primary key default gen_random_uuid(),
  type text not null constraint security_events_type_length check (private.trimmed_length(type) between 1 and 100),
  category text not null default 'general'
    constraint security_events_category_length check (private.trimmed_length(category) between 1 and 100),
  action text not null constraint security_events_action_length check (private.trimmed_length(action) between 1 and 100),
  description text constraint security_events_description_length check (description is null or char_length(description) <= 2000),
  -- User agent, url, timestamp, CSRF token prefix, user id and email (§3): a small JSON object.
  additional_data jsonb not null default '{}'::jsonb
    constraint security_events_additional_data_object check (jsonb_typeof(additional_data) = 'object')
    constraint security_events_additional_data_size check (octet_length(additional_data::text) <= 8192),
  risk_level text not null default 'low'
    constraint security_events_risk_level_check check (risk_level in ('low', 'medium', 'high', 'critical')),
  user_id uuid default auth.uid() references auth.users (id) on delete cascade,
  ip inet,
  created_at timestamptz not null default now()
);

create index if not exists security_events_created_at_idx on public.security_events (created_at desc);
create index if not exists security_events_user_id_created_at_idx
  on public.security_events (user_id, created_at desc) where user_id is not null;
create index if not exists security_events_ip_created_at_idx
  on public.security_events (ip, created_at desc) where ip is not null;
create index if not exists security_events_risk_level_created_at_idx
  on public.security_events (risk_level, created_at desc) where risk_level in ('high', 'critical');

alter table public.security_events enable row level security;

drop policy if exists "security_events: visitors log anonymously" on public.security_events;
create policy "security_events: visitors log anonymously" on public.security_events
  for insert to anon
  with check (user_id is null);

drop policy if exists "security_events: members log about themselves" on public.security_events;
create policy "security_events: members log about themselves" on public.security_events
  for insert to authenticated
  with check (user_id is null or user_id = (select auth.uid()));

drop policy if exists "security_events: admins read" on public.security_events;
create policy "security_events: admins read" on public.security_events
  for select to authenticated
  using ((select public.has_role('admin')));
-- No update or delete policy: the log is append-only for everyone but the server's roles.

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
  -- A log anyone may write must not be floodable: 60 events a minute per user and per address.
  perform private.enforce_insert_rate('insert:security_events', 60, 60, interval '1 minute');
  return new;
end
$$;
revoke all on function private.guard_security_event() from public;

create or replace trigger guard_security_event before insert on public.security_events
  for each row execute function private.guard_security_event();
create or replace trigger guard_timestamps before insert or update on public.security_events
  for each row execute function private.guard_timestamps('created_at');

-- log_security_event(type, action, category, description, additional_data, risk_level) → uuid
-- The security event fields of §3 as named arguments (the JSON keys of supabase.rpc), recorded with
-- the caller's user id and client address. Also the §7 helper's shape: type, action, description (the
-- message) and risk_level 'medium'. Over the flood limit the event is dropped and null returned:
-- logging never breaks the action being logged.
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

  if not private.caller_is_privileged() then
    begin
      perform private.enforce_insert_rate('insert:security_events', 60, 60, interval '1 minute');
    exception when sqlstate 'PT429' then
      return null;
    end;
  end if;

  insert into public.security_events (type, category, action, description, additional_data, risk_level, user_id, ip)
  values (
    btrim(log_security_event.type),
    btrim(coalesce(log_security_event.category, 'general')),
    btrim(log_security_event.action),
    log_security_event.description,
    coalesce(log_security_event.additional_data, '{}'::jsonb),
    coalesce(log_security_event.risk_level, 'low'),
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

-- ---------------------------------------------------------------------------------------------------
-- advanced_content_validation(content_text, field_name, min_length, max_length, allow_html)
--   → {"is_valid": bool, "violations": [text, ...]}
-- The server's copy of §5's field rules, with §5's texts: required, trimmed length, HTML (unless
-- allowed) and script markup (never allowed). Sign-up shows "Invalid name: " + violations joined by
-- ", ". Field names are echoed into the texts, so they must be plain identifiers.
-- ---------------------------------------------------------------------------------------------------
create or replace function public.advanced_content_validation(
  content_text text,
  field_name text default 'content',
  min_length integer default 0,
  max_length integer default 1000,
  allow_html boolean default false
) returns jsonb
language plpgsql immutable set search_path = ''
as $$
declare
  v_field text := coalesce(field_name, 'content');
  v_label text;
  v_min integer := coalesce(min_length, 0);
  v_max integer := coalesce(max_length, 1000);
  v_length integer;
  v_violations text[] := '{}';
begin
  if v_field !~ '^[A-Za-z][A-Za-z0-9_ ]{0,63}$' then
    raise exception using errcode = 'invalid_parameter_value',
      message = 'field_name must be 1 to 64 letters, digits, spaces or _, starting with a letter';
  end if;
  if v_min < 0 or v_max < 0 then
    raise exception using errcode = 'invalid_parameter_value', message = 'min_length and max_length cannot be negative';
  end if;
  if v_min > v_max then
    raise exception using errcode = 'invalid_parameter_value', message = 'min_length cannot exceed max_length';
  end if;
  if v_max > 1000000 then
    raise exception using errcode = 'invalid_parameter_value', message = 'max_length can be at most 1000000';
  end if;

  -- "full_name" reads as "Full name" in a message.
  v_label := upper(left(replace(v_field, '_', ' '), 1)) || substr(replace(v_field, '_', ' '), 2);
  v_length := coalesce(private.trimmed_length(content_text), 0);

  if v_length = 0 and v_min > 0 then
    v_violations := v_violations || format('%s is required.', v_label);
  elsif v_length < v_min or v_length > v_max then
    v_violations := v_violations || format('%s must be between %s and %s characters.', v_label, v_min, v_max);
  end if;
  if content_text is not null then
    if not coalesce(allow_html, false) and private.has_html(content_text) then
      v_violations := v_violations || format('%s must not contain HTML.', v_label);
    end if;
    if private.has_script_markup(content_text) then
      v_violations := v_violations || format('%s must not contain script markup.', v_label);
    end if;
  end if;

  return jsonb_build_object('is_valid', cardinality(v_violations) = 0, 'violations', to_jsonb(v_violations));
end
$$;

revoke all on function public.advanced_content_validation(text, text, integer, integer, boolean) from public;
grant execute on function public.advanced_content_validation(text, text, integer, integer, boolean)
  to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- Table privileges: RLS decides row by row what the API roles may do; TRUNCATE (which RLS does not
-- cover), REFERENCES and TRIGGER are not theirs on any product table.
-- ---------------------------------------------------------------------------------------------------
revoke truncate, references, trigger on
  public.user_roles, public.profiles, public.privacy_settings, public.scammer_subscriptions,
  public.admin_posts, public.product_votes, public.product_comments, public.saved_articles,
  public.notifications, public.scammer_reports, public.bookings, public.security_events
from anon, authenticated;
