-- HighGrade product schema, part 1: the `private` schema with product settings and the small helpers
-- that constraints, triggers and policies share.
--
-- `private` is never exposed through the Data API (only `public` is). The API roles get USAGE on it so
-- that triggers running as the caller can call the helpers granted to them below; its tables are
-- granted to nobody, so clients can neither read nor write them.
-- Every statement here is safe to run twice (the migration runner applies each file once; an operator
-- pasting a file into the SQL editor of a hosted project twice breaks nothing).

create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

-- Product settings an operator may change with plain SQL (see supabase/README.md). One row.
create table if not exists private.app_settings (
  id boolean primary key default true constraint app_settings_single_row check (id),
  -- Length of the free scammer-network trial a new profile starts with (design.md: default 24 h).
  trial_length interval not null default interval '24 hours'
    constraint app_settings_trial_length_range
    check (trial_length >= interval '0' and trial_length <= interval '365 days'),
  updated_at timestamptz not null default now()
);
insert into private.app_settings (id) values (true) on conflict (id) do nothing;
revoke all on table private.app_settings from public, anon, authenticated, service_role;

create or replace function private.trial_length() returns interval
language sql stable security definer set search_path = ''
as $$
  select coalesce((select s.trial_length from private.app_settings s where s.id), interval '24 hours')
$$;

-- ---------------------------------------------------------------------------------------------------
-- Text checks mirroring spec §5, used by CHECK constraints and by advanced_content_validation so the
-- browser's rules and the database's rules cannot drift apart. All immutable: same input, same answer.
-- ---------------------------------------------------------------------------------------------------

-- "{field} must be between {min} and {max} characters." counts the trimmed text.
create or replace function private.trimmed_length(value text) returns integer
language sql immutable parallel safe set search_path = ''
as $$
  select char_length(regexp_replace(value, '^[[:space:]]+|[[:space:]]+$', '', 'g'))
$$;

-- The no-script-markup pattern of §5: a script tag, javascript:, vbscript:, onload= or onclick=, plus
-- the other event handlers attackers reach for first (onerror=, onmouseover=, onfocus=).
create or replace function private.has_script_markup(value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select value ~* '<[[:space:]]*/?[[:space:]]*script|javascript[[:space:]]*:|vbscript[[:space:]]*:|\mon(load|click|error|mouseover|focus)[[:space:]]*='
$$;

-- HTML for "HTML not allowed": anything a browser could parse as a tag, comment or doctype.
create or replace function private.has_html(value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select value ~ '<[/!?]?[A-Za-z]|<!--|&#?[A-Za-z0-9]+;'
$$;

-- What §5's text cleaning removes before a scammer report is saved: < > ' " & and backtick, and the
-- prefixes javascript:, data: and vbscript:. Text that still contains them skipped the cleaning.
create or replace function private.has_unsanitised_text(value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select value ~ '[<>''"&`]' or value ~* '(javascript|data|vbscript):'
$$;

-- "Please enter a valid email address.": something@something.tld without spaces, at most 254 characters.
create or replace function private.is_email(value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select char_length(value) <= 254 and value ~ '^[^[:space:]@]+@[^[:space:]@]+\.[^[:space:]@]+$'
$$;

-- "Please enter a valid phone number.": optional +, digits, spaces, dashes, brackets, at least 10
-- characters; at most 30, and at least 7 of them digits (ten dashes are not a phone number).
create or replace function private.is_phone(value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select value ~ '^\+?[0-9 ()-]{10,30}$' and char_length(regexp_replace(value, '[^0-9]', '', 'g')) >= 7
$$;

-- "Please enter a valid URL." (http or https), at most 2048 characters, no whitespace.
create or replace function private.is_http_url(value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select char_length(value) <= 2048 and value ~* '^https?://[^[:space:]/?#]+[^[:space:]]*$'
$$;

-- A one-dimensional list of at most 20 http(s) URLs (admin post media).
create or replace function private.are_http_urls(value text[]) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(array_ndims(value), 1) = 1
    and coalesce(cardinality(value), 0) <= 20
    and not exists (select 1 from unnest(value) as u(url) where url is null or not private.is_http_url(url))
$$;

-- A calendar date written yyyy-MM-dd (bookings keep the date as text, as the web app sends it).
create or replace function private.is_iso_date(value text) returns boolean
language plpgsql immutable parallel safe set search_path = ''
as $$
begin
  if value !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then
    return false;
  end if;
  perform make_date(substr(value, 1, 4)::integer, substr(value, 6, 2)::integer, substr(value, 9, 2)::integer);
  return true;
exception when others then
  return false;
end
$$;

-- Product ids are text until products get their own table (design.md: Pass or Gas): a slug or a uuid.
create or replace function private.is_product_id(value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select value ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$'
$$;

-- ---------------------------------------------------------------------------------------------------
-- Who is asking
-- ---------------------------------------------------------------------------------------------------

-- True for the server's own roles (service_role, the migration/superuser role, a SECURITY DEFINER
-- function's owner): everything except the two roles browsers run as. Only meaningful where it runs as
-- the caller (policies and SECURITY INVOKER triggers), which is the only place it is used.
create or replace function private.is_privileged() returns boolean
language sql stable set search_path = ''
as $$
  select current_user not in ('anon', 'authenticated')
$$;

-- The same question inside SECURITY DEFINER functions, where current_user is the owner: there the
-- verified JWT's role claim tells who called (no claims at all = a server-side SQL session).
create or replace function private.caller_is_privileged() returns boolean
language sql stable set search_path = ''
as $$
  select coalesce(auth.role(), 'service_role') not in ('anon', 'authenticated')
$$;

-- Text to inet without throwing: bare addresses only (v4, v6, v4 with a :port, [v6]:port).
create or replace function private.parse_ip(value text) returns inet
language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  candidate text := btrim(value);
  parsed inet;
begin
  if candidate is null or candidate = '' or char_length(candidate) > 64 or candidate like '%/%' then
    return null;
  end if;
  if candidate ~ '^[0-9.]+:[0-9]+$' then
    candidate := split_part(candidate, ':', 1);
  elsif candidate ~ '^\[[0-9A-Fa-f:.]+\](:[0-9]+)?$' then
    candidate := substring(candidate from '^\[([0-9A-Fa-f:.]+)\]');
  end if;
  parsed := candidate::inet;
  return parsed;
exception when others then
  return null;
end
$$;

-- The client's address as the API layer recorded it: the first entry of x-forwarded-for (our server
-- sets it from the socket; PostgREST on hosted Supabase passes the gateway's), else x-real-ip.
create or replace function private.request_ip() returns inet
language plpgsql stable set search_path = ''
as $$
declare
  headers jsonb;
begin
  headers := nullif(current_setting('request.headers', true), '')::jsonb;
  if headers is null or jsonb_typeof(headers) <> 'object' then
    return null;
  end if;
  return coalesce(
    private.parse_ip(split_part(headers ->> 'x-forwarded-for', ',', 1)),
    private.parse_ip(headers ->> 'x-real-ip')
  );
exception when others then
  return null;
end
$$;

-- ---------------------------------------------------------------------------------------------------
-- Trigger helpers shared by the tables
-- ---------------------------------------------------------------------------------------------------

create or replace function private.touch_updated_at() returns trigger
language plpgsql set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- Server-managed timestamps (arguments: column names). Browsers may not choose them: on insert they
-- must keep their default (now()), on update they must not change. The server's roles are trusted.
create or replace function private.guard_timestamps() returns trigger
language plpgsql set search_path = ''
as $$
declare
  col text;
  given timestamptz;
begin
  if private.is_privileged() then
    return new;
  end if;
  foreach col in array tg_argv loop
    given := (to_jsonb(new) ->> col)::timestamptz;
    if tg_op = 'INSERT' and given is distinct from now() then
      raise exception using errcode = 'insufficient_privilege',
        message = format('%s.%s is set by the server', tg_table_name, col),
        hint = format('Leave %s out of the request.', col);
    elsif tg_op = 'UPDATE' and given is distinct from (to_jsonb(old) ->> col)::timestamptz then
      raise exception using errcode = 'insufficient_privilege',
        message = format('%s.%s is set by the server', tg_table_name, col),
        hint = format('Leave %s out of the request.', col);
    end if;
  end loop;
  return new;
end
$$;

-- Columns fixed once a row exists (arguments: column names), for every caller except the server's
-- roles: who owns a row and what it is about never changes under it.
create or replace function private.guard_immutable() returns trigger
language plpgsql set search_path = ''
as $$
declare
  col text;
begin
  if private.is_privileged() then
    return new;
  end if;
  foreach col in array tg_argv loop
    if (to_jsonb(new) -> col) is distinct from (to_jsonb(old) -> col) then
      raise exception using errcode = 'insufficient_privilege',
        message = format('%s.%s cannot be changed', tg_table_name, col);
    end if;
  end loop;
  return new;
end
$$;

-- Helpers are for the database's own use; the API roles may run the ones constraints, defaults and
-- triggers call on their behalf, and nothing else.
revoke all on all functions in schema private from public;
grant execute on function
  private.trial_length(),
  private.trimmed_length(text),
  private.has_script_markup(text),
  private.has_html(text),
  private.has_unsanitised_text(text),
  private.is_email(text),
  private.is_phone(text),
  private.is_http_url(text),
  private.are_http_urls(text[]),
  private.is_iso_date(text),
  private.is_product_id(text),
  private.is_privileged(),
  private.caller_is_privileged(),
  private.parse_ip(text),
  private.request_ip()
to anon, authenticated, service_role;
