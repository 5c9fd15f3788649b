-- Whether the account named by the request's access token still exists. An access token outlives a
-- deleted account by up to JWT_EXPIRY; the data API and the file service ask this first, in the
-- statement that opens the request's transaction, and answer 401/403 in their own format
-- (docs/decisions/097-deletion-leaves-nothing.md) rather than letting the request run as a user who
-- is gone.
--
-- PL/pgSQL (decision 254): a SECURITY DEFINER function is never inlined, and before PostgreSQL 18 a
-- LANGUAGE sql one parses and plans its body again in every statement that calls it (about 60 µs a
-- call on PostgreSQL 15); PL/pgSQL keeps its plan for the connection's life (about 12 µs). auth.uid()
-- is stable, so it is read at each call.
create or replace function auth.caller_exists() returns boolean
language plpgsql stable security definer set search_path = ''
as $$
begin
  return exists (select 1 from auth.users u where u.id = auth.uid());
end
$$;
revoke all on function auth.caller_exists() from public;
grant execute on function auth.caller_exists() to authenticated, service_role;
