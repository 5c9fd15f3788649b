-- Stage 3 of realtime.apply_changes (apply_changes.sql): the payloads. One per change and role,
-- addressed to every subscription that may see it, in change order.

-- The fields of `rec` named in `keys` (all of them when `keys` is null); when the whole record is over
-- `max_bytes`, only the values of at most 64 bytes (as Supabase does for oversized rows).
create or replace function realtime.pick(rec jsonb, keys text[], oversized boolean) returns jsonb
language plpgsql
immutable
as $$
begin
  if rec is null then
    return '{}'::jsonb;
  end if;
  if keys is null and not oversized then
    return rec;
  end if;
  return coalesce(
    (select pg_catalog.jsonb_object_agg(e.key, e.value)
     from pg_catalog.jsonb_each(rec) e
     where (keys is null or e.key = any (keys))
       and (not oversized or pg_catalog.octet_length(e.value::text) <= 64)),
    '{}'::jsonb);
end
$$;

revoke all on function realtime.pick(jsonb, text[], boolean) from public;

create or replace function realtime.build_payloads(
  p_changes realtime.changes[],
  p_pairs realtime.pair[],
  p_groups realtime.identity_group[],
  p_members realtime.member[],
  p_meta realtime.entity_meta[],
  p_visible_groups bigint[],
  p_visible_changes bigint[],
  p_max_record_bytes int
) returns setof realtime.delivery
language plpgsql
volatile
as $$
begin
  return query
  with vis as materialized (
    select distinct v.gid, v.change_id from unnest(p_visible_groups, p_visible_changes) v(gid, change_id)
  ), members as materialized (
    select m.subscription_id, m.gid from pg_catalog.unnest(p_members) m
  ), groups as materialized (
    select g.gid, g.role from pg_catalog.unnest(p_groups) g
  ), paired as materialized (
    -- Each pair with its identity first: joining pairs on the change first would pair every
    -- subscriber of a fanned-out change with every identity that may see it (n² rows).
    select p.change_id, p.subscription_id, members.gid
    from pg_catalog.unnest(p_pairs) p
    join members on members.subscription_id = p.subscription_id
  ), addressed as materialized (
    select paired.change_id, groups.role, paired.subscription_id
    from paired
    join vis on vis.gid = paired.gid and vis.change_id = paired.change_id
    join groups on groups.gid = paired.gid
  ), grouped as (
    select a.change_id, a.role, pg_catalog.array_agg(distinct a.subscription_id) as subscription_ids
    from addressed a
    group by a.change_id, a.role
  )
  -- Assembled as text: the record is serialised once, and nothing else is re-encoded.
  select g.change_id,
         '{"schema":' || pg_catalog.to_json(m.schema_name)::text
         || ',"table":' || pg_catalog.to_json(m.table_name)::text
         || ',"commit_timestamp":"'
         || pg_catalog.to_char(c.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'
         || ',"type":"' || c.action || '"'
         || ',"columns":' || m.columns::text
         || ',"errors":' || case
              when m.pk is null and c.action <> 'DELETE' then '["Error 400: Bad Request, no primary key"]'
              when big.oversized then '["Error 413: Payload Too Large"]'
              else 'null'
            end
         || case
              when m.pk is null and c.action <> 'DELETE' then ''
              when c.action in ('INSERT', 'UPDATE') then ',"record":'
                || case
                     when m.all_visible and not big.oversized then c.record::text
                     else realtime.pick(c.record, case when m.all_visible then null else m.visible end, big.oversized)::text
                   end
              else ''
            end
         || case
              when m.pk is null and c.action <> 'DELETE' then ''
              when c.action = 'UPDATE' then ',"old_record":'
                || realtime.pick(c.old_record, ident.old_keys, big.oversized)::text
              when c.action = 'DELETE' then ',"old_record":'
                || realtime.pick(c.old_record,
                     case
                       -- Row-level security cannot be checked on a deleted row: only its key is sent.
                       when m.rls then (
                         select coalesce(pg_catalog.array_agg(k), '{}')
                         from pg_catalog.unnest(coalesce(m.pk, '{}')) k where k = any (m.visible)
                       )
                       else ident.old_keys
                     end,
                     big.oversized)::text
              else ''
            end
         || '}',
         g.subscription_ids
  from grouped g
  join pg_catalog.unnest(p_changes) c on c.id = g.change_id
  join pg_catalog.unnest(p_meta) m on m.entity = c.entity and m.role = g.role
  cross join lateral (
    -- The record's size as stored, a close and cheap measure of its size as JSON text.
    select pg_catalog.pg_column_size(coalesce(c.record, c.old_record)) > p_max_record_bytes as oversized
  ) big
  -- The old values replication would have logged: the whole row (null: no restriction), the key, an
  -- index's columns or nothing, restricted to the columns the role may select.
  cross join lateral (
    select case
      when c.replica_identity = 'f' and m.all_visible then null
      when c.replica_identity = 'f' then m.visible
      else (
        select coalesce(pg_catalog.array_agg(k), '{}')
        from pg_catalog.unnest(case c.replica_identity
          when 'n' then '{}'::text[]
          when 'i' then m.index_identity
          else coalesce(m.pk, '{}') end) k
        where k = any (m.visible)
      )
    end as old_keys
  ) ident
  order by g.change_id, g.role;
end
$$;

revoke all on function realtime.build_payloads(realtime.changes[], realtime.pair[], realtime.identity_group[],
  realtime.member[], realtime.entity_meta[], bigint[], bigint[], int) from public;
