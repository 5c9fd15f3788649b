-- Realtime Authorization (issue 24, decision 147), as Supabase Realtime checks it
-- (lib/realtime/tenants/authorization.ex), in one round trip:
--  * read (at join, and again when the token changes): a probe row per extension ('broadcast',
--    'presence') is inserted into realtime.messages for the topic, then, as the subscriber's role
--    with its claims and `realtime.topic` set, the probes it can SELECT say which it may read;
--  * write (at the first send or track of a channel, and again after its token changes): as the
--    subscriber, a row per extension is inserted; those the INSERT policies refuse
--    (insufficient_privilege) may not be written.
-- Everything is rolled back (the probes never reach a table or a subscriber). Returns the allowed
-- extensions. An error in a policy is raised to the caller, which refuses (Supabase's RlsPolicyError).

create or replace function realtime.authorize(
  p_topic text,
  p_role text,
  p_claims jsonb,
  p_write boolean,
  p_extensions text[]
) returns text[]
language plpgsql
as $$
declare
  v_allowed text[] := '{}';
  v_ids uuid[];
  v_extension text;
begin
  begin
    if not p_write then
      with probes as (
        insert into realtime.messages (topic, extension)
        select p_topic, e from pg_catalog.unnest(p_extensions) e
        returning id
      )
      select pg_catalog.array_agg(id) into v_ids from probes;
    end if;
    perform pg_catalog.set_config('role', p_role, true),
      pg_catalog.set_config('request.jwt.claims', p_claims::text, true),
      pg_catalog.set_config('request.jwt.claim.sub', coalesce(p_claims ->> 'sub', ''), true),
      pg_catalog.set_config('request.jwt.claim.role', p_role, true),
      pg_catalog.set_config('request.headers', '{}', true),
      pg_catalog.set_config('realtime.topic', p_topic, true);
    if p_write then
      foreach v_extension in array p_extensions loop
        begin
          insert into realtime.messages (topic, extension) values (p_topic, v_extension);
          v_allowed := v_allowed || v_extension;
        exception when insufficient_privilege then
          null;
        end;
      end loop;
    else
      select coalesce(pg_catalog.array_agg(m.extension), '{}') into v_allowed
      from realtime.messages m where m.id = any (v_ids);
    end if;
    -- Undo the probes and the settings (a subtransaction rolled back; variables keep their values).
    raise exception using errcode = 'RT000';
  exception when sqlstate 'RT000' then
    null;
  end;
  return v_allowed;
end
$$;

revoke all on function realtime.authorize(text, text, jsonb, boolean, text[]) from public;
