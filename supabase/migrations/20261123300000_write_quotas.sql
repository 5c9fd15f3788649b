-- Write quotas on every table members (and visitors) can write (docs/decisions/094-write-quotas.md).
--
-- Row-level security decides *which* rows a caller may write; nothing limited *how many*: one request
-- could insert 10 000 comments, a script could add thousands a minute. A quota is three numbers per
-- table — new rows per minute, per day, and per request — enforced by two triggers (a row trigger
-- stopping an oversized request at its first row too many, a statement trigger counting the windows),
-- so every path into the table (the Data API, storage, SQL run as an API role) is bound by it and no
-- client can skip it. The server's own roles are not limited.
--
-- Adding a quota to a new table is one line:
--
--   select private.set_write_quota('public.product_claims', 10, 200, 5, 'claims');
--
-- (per minute, per day, per request, and the word the error message uses for the rows). The same line
-- with other numbers changes the quota; operators may also UPDATE private.write_quotas directly.
--
-- Refusals are one error everywhere: HTTP 429, a PostgREST error with the stable code "PT429", a
-- message that says what the limit is (it starts "rate limit reached", which the web app maps to its
-- §8 text), a hint saying how long to wait, and a Retry-After header. The older per-row limits (bookings, scammer
-- reports, security events) answer the same way from now on.

-- ---------------------------------------------------------------------------------------------------
-- The one refusal
-- ---------------------------------------------------------------------------------------------------

create or replace function private.raise_rate_limited(message text, details text, retry_after integer)
returns void
language plpgsql volatile set search_path = ''
as $$
begin
  -- RAISE SQLSTATE 'PGRST' is PostgREST's way for SQL to choose the whole answer: body and status.
  raise sqlstate 'PGRST' using
    message = json_build_object(
      'code', 'PT429',
      'message', message,
      'details', details,
      'hint', case when retry_after > 0 then format('Try again in %s seconds.', retry_after) end
    )::text,
    detail = json_build_object(
      'status', 429,
      'headers', case when retry_after > 0
        then json_build_object('Retry-After', retry_after::text) else '{}'::json end
    )::text;
end
$$;
comment on function private.raise_rate_limited(text, text, integer) is
  'Refuses the statement with the product''s one rate-limit error: HTTP 429, code PT429, Retry-After.';

-- ---------------------------------------------------------------------------------------------------
-- Quotas and their counters
-- ---------------------------------------------------------------------------------------------------

create table if not exists private.write_quotas (
  relation regclass primary key,
  per_minute integer not null constraint write_quotas_per_minute_range check (per_minute between 1 and 1000000),
  per_day integer not null constraint write_quotas_per_day_range check (per_day between 1 and 100000000),
  per_request integer not null constraint write_quotas_per_request_range check (per_request between 1 and 1000000),
  -- "you can add at most 5 {label} a minute"
  label text not null constraint write_quotas_label_format check (label ~ '^[a-z][a-z ]{0,39}$')
);

-- Fixed windows per table and writer ('user:<uuid>' for members, 'ip:<address>' for visitors): a
-- minute and a day, each starting with the first write after the previous one ran out. One row per
-- (table, writer), updated once per statement.
create table if not exists private.write_quota_usage (
  relation oid not null,
  subject text not null,
  user_id uuid references auth.users (id) on delete cascade,
  minute_start timestamptz not null,
  minute_count integer not null,
  day_start timestamptz not null,
  day_count integer not null,
  primary key (relation, subject)
);
create index if not exists write_quota_usage_day_start_idx on private.write_quota_usage (day_start);
create index if not exists write_quota_usage_user_id_idx on private.write_quota_usage (user_id) where user_id is not null;

revoke all on table private.write_quotas, private.write_quota_usage from public, anon, authenticated, service_role;

-- Counts `p_rows` new rows of `p_relation` for the calling member (else the client address) and
-- refuses the statement when a limit is passed. Refused statements roll back, their count with them:
-- trying again never lengthens the wait.
create or replace function private.take_write_quota(p_relation regclass, p_rows integer) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_quota private.write_quotas%rowtype;
  v_uid uuid := auth.uid();
  v_ip inet;
  v_subject text;
  v_minute timestamptz;
  v_day timestamptz;
  v_minute_count integer;
  v_day_count integer;
begin
  if p_rows is null or p_rows <= 0 then
    return;
  end if;
  select * into v_quota from private.write_quotas q where q.relation = p_relation;
  if not found then
    return;
  end if;
  if p_rows > v_quota.per_request then
    perform private.raise_rate_limited(
      format('rate limit reached: at most %s %s can be added in one request.', v_quota.per_request, v_quota.label),
      format('This request adds %s.', p_rows), 0);
  end if;
  if v_uid is not null then
    v_subject := 'user:' || v_uid::text;
  else
    v_ip := private.request_ip();
    if v_ip is null then
      return; -- nobody to attribute the rows to (a server-side session)
    end if;
    v_subject := 'ip:' || host(v_ip);
  end if;

  insert into private.write_quota_usage as u
    (relation, subject, user_id, minute_start, minute_count, day_start, day_count)
  values (p_relation, v_subject, v_uid, now(), p_rows, now(), p_rows)
  on conflict (relation, subject) do update set
    minute_count = case when u.minute_start > now() - interval '1 minute'
                        then u.minute_count + excluded.minute_count else excluded.minute_count end,
    minute_start = case when u.minute_start > now() - interval '1 minute'
                        then u.minute_start else excluded.minute_start end,
    day_count = case when u.day_start > now() - interval '1 day'
                     then u.day_count + excluded.day_count else excluded.day_count end,
    day_start = case when u.day_start > now() - interval '1 day' then u.day_start else excluded.day_start end
  returning minute_start, minute_count, day_start, day_count
  into v_minute, v_minute_count, v_day, v_day_count;

  if v_day_count > v_quota.per_day then
    perform private.raise_rate_limited(
      format('rate limit reached: you can add at most %s %s a day.', v_quota.per_day, v_quota.label),
      format('At most %s per minute, %s per day and %s in one request.',
        v_quota.per_minute, v_quota.per_day, v_quota.per_request),
      greatest(1, ceil(extract(epoch from v_day + interval '1 day' - now())))::integer);
  end if;
  if v_minute_count > v_quota.per_minute then
    perform private.raise_rate_limited(
      format('rate limit reached: you can add at most %s %s a minute.', v_quota.per_minute, v_quota.label),
      format('At most %s per minute, %s per day and %s in one request.',
        v_quota.per_minute, v_quota.per_day, v_quota.per_request),
      greatest(1, ceil(extract(epoch from v_minute + interval '1 minute' - now())))::integer);
  end if;

  if random() < 0.001 then
    delete from private.write_quota_usage w where w.day_start < now() - interval '2 days';
  end if;
end
$$;

-- The per-request cap, for each row before it is checked or stored, so a 10 000-row request stops at
-- its first row over the cap instead of after working through all of them. Rows of the current
-- statement are counted in a transaction-local setting keyed by the statement's start time. Every
-- proposed row counts here, also those an upsert turns into updates: the cap is on request size.
create or replace function private.write_quota_cap(p_relation regclass) returns table (per_request integer, label text)
language sql stable security definer set search_path = ''
as $$
  select q.per_request, q.label from private.write_quotas q where q.relation = p_relation
$$;

create or replace function private.count_request_row() returns trigger
language plpgsql set search_path = ''
as $$
declare
  v_setting text := 'highgrade.write_quota_' || tg_relid::text;
  v_state text[] := string_to_array(nullif(current_setting(v_setting, true), ''), '|');
  v_statement text := statement_timestamp()::text;
  v_count integer;
  v_cap integer;
  v_label text;
begin
  if private.is_privileged() then
    return new;
  end if;
  if v_state is not null and v_state[1] = v_statement then
    v_count := v_state[2]::integer + 1;
    v_cap := nullif(v_state[3], '')::integer;
    v_label := v_state[4];
  else
    v_count := 1;
    select c.per_request, c.label into v_cap, v_label from private.write_quota_cap(tg_relid::regclass) c;
  end if;
  if v_count > v_cap then
    perform private.raise_rate_limited(
      format('rate limit reached: at most %s %s can be added in one request.', v_cap, v_label),
      format('This request adds more than %s.', v_cap), 0);
  end if;
  perform set_config(v_setting, concat_ws('|', v_statement, v_count, v_cap, v_label), true);
  return new;
end
$$;

-- The statement-level trigger: runs as the caller (so the server's roles are recognised) once per
-- INSERT statement, with every new row in the transition table `inserted`. Upserts that update an
-- existing row are not new rows and do not count.
create or replace function private.enforce_write_quota() returns trigger
language plpgsql set search_path = ''
as $$
declare
  v_rows integer;
begin
  if private.is_privileged() then
    return null;
  end if;
  select count(*) into v_rows from inserted;
  perform private.take_write_quota(tg_relid::regclass, v_rows);
  return null;
end
$$;

-- The one line per table: records (or changes) the quota and makes sure the trigger is there.
create or replace function private.set_write_quota(
  relation regclass, per_minute integer, per_day integer, per_request integer, label text
) returns void
language plpgsql volatile set search_path = ''
as $$
begin
  insert into private.write_quotas as q (relation, per_minute, per_day, per_request, label)
  values (set_write_quota.relation, set_write_quota.per_minute, set_write_quota.per_day,
          set_write_quota.per_request, set_write_quota.label)
  on conflict on constraint write_quotas_pkey do update set
    per_minute = excluded.per_minute, per_day = excluded.per_day,
    per_request = excluded.per_request, label = excluded.label;
  -- 'count_…' fires before the tables' 'guard_…' triggers (same-kind triggers fire in name order).
  execute format(
    'create or replace trigger count_request_row before insert on %s '
    'for each row execute function private.count_request_row()', set_write_quota.relation);
  execute format(
    'create or replace trigger write_quota after insert on %s referencing new table as inserted '
    'for each statement execute function private.enforce_write_quota()', set_write_quota.relation);
end
$$;
comment on function private.set_write_quota(regclass, integer, integer, integer, text) is
  'Quota on new rows of a table (per minute, per day, per request) for every API caller; see decision 094.';

revoke all on function
  private.raise_rate_limited(text, text, integer),
  private.take_write_quota(regclass, integer),
  private.write_quota_cap(regclass),
  private.count_request_row(),
  private.enforce_write_quota(),
  private.set_write_quota(regclass, integer, integer, integer, text)
from public;
-- The triggers run as the caller; what they call runs as this schema's owner.
grant execute on function
  private.raise_rate_limited(text, text, integer),
  private.take_write_quota(regclass, integer),
  private.write_quota_cap(regclass),
  private.count_request_row(),
  private.enforce_write_quota()
to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- The quotas. Generous for people, tight for scripts; one request adds what one form or click does.
-- ---------------------------------------------------------------------------------------------------

select private.set_write_quota('public.product_comments', 5, 100, 5, 'comments');
select private.set_write_quota('public.product_votes', 60, 1000, 50, 'votes');
select private.set_write_quota('public.saved_articles', 30, 500, 20, 'saved articles');
select private.set_write_quota('public.profiles', 5, 10, 1, 'profiles');
select private.set_write_quota('public.privacy_settings', 10, 50, 1, 'privacy settings');
select private.set_write_quota('public.scammer_subscriptions', 5, 20, 1, 'subscriptions');
select private.set_write_quota('public.scammer_reports', 3, 20, 1, 'scammer reports');
select private.set_write_quota('public.bookings', 20, 50, 1, 'bookings');
select private.set_write_quota('public.security_events', 60, 2000, 10, 'security events');
-- On a hosted project storage.objects belongs to the storage service's role; where this role may not
-- add triggers to it, uploads keep only the bucket limits.
do $$
begin
  perform private.set_write_quota('storage.objects', 30, 500, 10, 'files');
exception when insufficient_privilege then
  raise notice 'no write quota on storage.objects: % (uploads keep the bucket limits only)', sqlerrm;
end
$$;

-- ---------------------------------------------------------------------------------------------------
-- The per-row limits of 20261121100500_rate_limits.sql answer with the same error from now on.
-- ---------------------------------------------------------------------------------------------------

-- '15 minutes', 'hour', '2 days': a window as a message says it ("at most 3 per 15 minutes").
create or replace function private.interval_words(value interval) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select case
    when s % 86400 = 0 then case when s = 86400 then 'day' else (s / 86400)::text || ' days' end
    when s % 3600 = 0 then case when s = 3600 then 'hour' else (s / 3600)::text || ' hours' end
    when s % 60 = 0 then case when s = 60 then 'minute' else (s / 60)::text || ' minutes' end
    else s::text || ' seconds'
  end
  from (select extract(epoch from value)::bigint as s) as t
$$;
revoke all on function private.interval_words(interval) from public;
