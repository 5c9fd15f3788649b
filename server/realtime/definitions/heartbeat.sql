-- Housekeeping, once per heartbeat of each process: mark it alive, remove processes that stopped
-- beating (with their subscriptions and presences, which are returned so the caller can announce the
-- leaves), forget changes every live process has read, cross-process messages nobody needs and
-- broadcasts from the database once delivered, except private ones, which are kept p_keep_replay for
-- broadcast replay (decision 234; Supabase keeps them 72 hours).
-- Returns null when the calling process was itself removed (it then registers again).

create or replace function realtime.heartbeat(
  p_node uuid, p_dead_after interval, p_keep interval, p_keep_replay interval
)
returns table (topic text, key text, ref text, meta jsonb)
language plpgsql
as $$
declare
  v_min bigint;
begin
  update realtime.nodes set heartbeat_at = now() where id = p_node;
  if not found then
    raise exception using errcode = 'no_data_found', message = 'realtime node is not registered';
  end if;

  return query
  with dead as (
    delete from realtime.nodes n where n.heartbeat_at < now() - p_dead_after and n.id <> p_node returning n.id
  )
  select p.topic, p.key, p.ref, p.meta
  from realtime.presences p
  where p.node_id in (select id from dead);

  select min(n.cursor) into v_min from realtime.nodes n;
  -- Some slack (p_keep): a process whose answer got lost re-reads from the cursor it holds itself.
  delete from realtime.changes c
  where c.id <= v_min and c.created_at < clock_timestamp() - p_keep;
  delete from realtime.bus_messages m where m.created_at < now() - interval '1 minute';
  -- Broadcasts from the database are announced at commit; a stored one is read within the minute.
  -- Private broadcasts stay for replay (erasure deletes a member's own, supabase/definitions/erasure.sql).
  delete from realtime.messages m
  where m.inserted_at < (now() - interval '1 minute')::timestamp
    and (m.private is not true or m.extension <> 'broadcast'
         or m.inserted_at < (now() - p_keep_replay)::timestamp);
end
$$;

revoke all on function realtime.heartbeat(uuid, interval, interval, interval) from public;

-- The three-argument form of earlier releases, for a process not yet upgraded in a rolling upgrade.
create or replace function realtime.heartbeat(p_node uuid, p_dead_after interval, p_keep interval)
returns table (topic text, key text, ref text, meta jsonb)
language sql
as $$ select * from realtime.heartbeat(p_node, p_dead_after, p_keep, interval '72 hours') $$;

revoke all on function realtime.heartbeat(uuid, interval, interval) from public;
