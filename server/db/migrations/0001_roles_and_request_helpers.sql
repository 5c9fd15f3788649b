-- The roles every API request runs as, as on Supabase: `anon` (no session), `authenticated` (a
-- signed-in user) and `service_role` (server-side keys; bypasses row-level security). Roles belong to
-- the whole PostgreSQL cluster, so creating them tolerates their existing already (another database
-- on the same server, or a concurrent first start).
do $$
declare
  spec record;
begin
  for spec in select * from (values
    ('anon', 'nologin noinherit'),
    ('authenticated', 'nologin noinherit'),
    ('service_role', 'nologin noinherit bypassrls')
  ) as t(name, options)
  loop
    if not exists (select 1 from pg_roles where rolname = spec.name) then
      begin
        execute format('create role %I %s', spec.name, spec.options);
      exception when duplicate_object or unique_violation then
        null; -- created concurrently by another migration run
      end;
    end if;
  end loop;
end
$$;

-- The connecting user switches into these roles per request (set_config('role', ...)).
do $$
begin
  execute format('grant anon, authenticated, service_role to %I', current_user);
end
$$;

-- Supabase's default privileges: API roles may use the public schema and its objects; row-level
-- security policies decide row by row.
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;

-- The request helpers policies use, behaving as Supabase's: claims come from the per-transaction
-- setting `request.jwt.claims` (or the older per-claim settings).
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

create or replace function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email() to anon, authenticated, service_role;
