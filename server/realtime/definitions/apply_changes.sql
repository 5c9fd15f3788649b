-- Applying changes: which subscribers of one process receive which of the next changes, and what
-- they receive. One call per batch of changes, whatever the number of subscribers. This function
-- reads the batch and the process's subscriptions; the work is done in three stages, a file each:
--  1. filters (apply_changes_1_filters.sql): the filters of all subscriptions are evaluated set-wise,
--     one query per (table, column, operator), with PostgreSQL's own comparison of the column's type;
--  2. row-level security (apply_changes_2_security.sql): checked once per distinct identity (role +
--     claims) and table, for all of the batch's rows at once, by selecting those rows by primary key
--     as that identity; the row must still hold the change's values in every column the table's
--     SELECT policies read, so the policies judge the version of the row the change carries (a row
--     deleted or moved to another owner before the change is processed is not delivered: fail closed);
--  3. payload (apply_changes_3_payload.sql): built once per change and role (columns the role may not
--     select are left out), addressed to every subscription that may see it.
-- DELETE events cannot be checked against row-level security (the row is gone); as on Supabase
-- their old_record then carries only the primary key. Filters do apply to deletes (on the old row).
--
-- The rows come in change order, then one last row (the batch's last change id, no payload) that
-- moves the caller's cursor. With several shards (parallel calls for one batch, `p_shards` > 1),
-- each call takes the identities hashed to `p_shard`.

create or replace function realtime.apply_changes(
  p_node uuid,
  p_after bigint,
  p_upto bigint,
  p_limit int,
  p_max_record_bytes int,
  p_shard int default 0,
  p_shards int default 1
) returns setof realtime.delivery
language plpgsql
volatile
as $$
declare
  v_changes realtime.changes[];
  v_last bigint;
  v_subs realtime.subscriptions[];
  v_pairs realtime.pair[];
  v_groups realtime.identity_group[];
  v_members realtime.member[];
  v_meta realtime.entity_meta[];
  v_visible_groups bigint[];
  v_visible_changes bigint[];
begin
  -- The queries of every stage join arrays whose sizes the planner cannot see (it assumes a handful
  -- of rows and would pair every change with every subscription in nested loops): hash joins are
  -- forced, except for the per-row lookups of the row-level security checks. Compiling these short
  -- queries (JIT) would cost more than running them. Both settings last until the transaction ends.
  perform pg_catalog.set_config('jit', 'off', true),
          pg_catalog.set_config('enable_nestloop', 'off', true);
  select pg_catalog.array_agg(x.c order by (x.c).id) into v_changes
  from (
    select c from realtime.changes c
    where c.id > p_after and (p_upto is null or c.id <= p_upto)
    order by c.id limit p_limit
  ) x;
  if v_changes is null then
    return;
  end if;
  v_last := v_changes[pg_catalog.array_length(v_changes, 1)].id;
  -- The first shard moves the cursor (all of them updating this row would make them wait for each other).
  if p_shard = 0 then
    update realtime.nodes set cursor = greatest(cursor, v_last) where id = p_node;
  end if;

  select pg_catalog.array_agg(s) into v_subs
  from realtime.subscriptions s
  where s.node_id = p_node
    and s.entity in (select distinct c.entity from pg_catalog.unnest(v_changes) c)
    and (p_shards = 1
         or (pg_catalog.hashtext(s.claims_role || s.claims::text) & 2147483647) % p_shards = p_shard);
  if v_subs is null then
    return next (v_last, null, null)::realtime.delivery;
    return;
  end if;

  -- 1. Filters.
  v_pairs := realtime.filter_changes(v_changes, v_subs);
  if v_pairs is null then
    return next (v_last, null, null)::realtime.delivery;
    return;
  end if;

  -- 2. Row-level security.
  select a.o_groups, a.o_members, a.o_meta, a.o_visible_groups, a.o_visible_changes
    into v_groups, v_members, v_meta, v_visible_groups, v_visible_changes
  from realtime.authorize_changes(v_changes, v_subs, v_pairs) a;

  -- 3. Payloads.
  return query
  select d.change_id, d.payload, d.subscription_ids
  from realtime.build_payloads(v_changes, v_pairs, v_groups, v_members, v_meta, v_visible_groups,
                               v_visible_changes, p_max_record_bytes) d;

  return next (v_last, null, null)::realtime.delivery;
end
$$;

revoke all on function realtime.apply_changes(uuid, bigint, bigint, int, int, int, int) from public;
