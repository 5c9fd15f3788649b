-- Corrections to 0002 and its companions (decision 087).
--
-- 1. A binding on a whole schema (`{schema: 'public'}`) records one subscription id for each of its
--    tables, and a change was checked by that subscriber's identity groups of every table: a row of a
--    table with row-level security could pass through the group of a table without it (a leak), and a
--    check fed another table's row failed for all of the group's rows (lost deliveries). A change is
--    now checked only by the identity of its own table. (The fault was in 0001 already.)
-- 2. Tables whose SELECT policies call an IMMUTABLE function of their own keep a query planned for
--    each identity: PostgreSQL may evaluate such a function once, when planning, and a cached plan
--    would keep its answer for one subscriber's claims for the next.
-- 3. Generated check functions are created under one advisory lock: two transactions creating two
--    new functions in opposite orders could deadlock, failing the batch. Each is granted to public
--    whatever the database's default privileges. Tables without row-level security get none.
-- 4. Only the first shard of a batch moves the process's cursor, so shards no longer wait for each
--    other on that row.

grant execute on all functions in schema realtime_check to public;

create or replace function realtime.check_call(p_sql text) returns text
language plpgsql
volatile
as $$
declare
  v_name text := 'c_' || pg_catalog.md5(p_sql);
  v_signature text := pg_catalog.format('realtime_check.%I(bigint[], jsonb[])', v_name);
begin
  if pg_catalog.to_regprocedure(v_signature) is null then
    -- One lock for every creation (held to the end of the transaction): creators never wait for each
    -- other in opposite orders.
    perform pg_catalog.pg_advisory_xact_lock(7355608423);
    begin
      if pg_catalog.to_regprocedure(v_signature) is null then
        -- A generic plan: the arrays' sizes change with every batch and would otherwise make
        -- PostgreSQL plan each call again for its parameters.
        execute pg_catalog.format(
          'create function realtime_check.%I(bigint[], jsonb[]) returns bigint[] language plpgsql volatile '
          'set plan_cache_mode = force_generic_plan set enable_nestloop = on set jit = off as %L',
          v_name, 'begin return (' || p_sql || '); end');
        execute pg_catalog.format('grant execute on function %s to public', v_signature);
      end if;
    exception when duplicate_function or unique_violation then
      -- Created by a transaction that committed while this one waited for the lock.
      null;
    end;
  end if;
  return pg_catalog.format('select %s($1, $2)', pg_catalog.format('realtime_check.%I', v_name));
end
$$;

revoke all on function realtime.check_call(text) from public;

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
  v_pass realtime.filter_pass[] := '{}';
  v_more realtime.filter_pass[];
  v_pairs realtime.pair[];
  v_groups realtime.identity_group[];
  v_members realtime.member[];
  v_meta realtime.entity_meta[];
  v_visible_groups bigint[] := '{}';
  v_visible_changes bigint[] := '{}';
  v_role text;
  v_seen bigint[];
  v_ids bigint[];
  v_group realtime.identity_group;
  v_m realtime.entity_meta;
  v_qualified text;
  v_type text;
  v_op text;
  filter_group record;
begin
  -- The queries below join arrays whose sizes the planner cannot see (it assumes a handful of
  -- rows and would pair every change with every subscription in nested loops): hash joins are
  -- forced, except for the per-row lookups of the row-level security checks. Compiling these short
  -- queries (JIT) would cost more than running them.
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

  -- With several shards (parallel calls for one batch), each takes the identities hashed to it.
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

  -- 1. Filters: one set-wise query per (table, column, operator).
  for filter_group in
    select distinct s.entity, f.value ->> 'column' as col, f.value ->> 'op' as op
    from pg_catalog.unnest(v_subs) s, pg_catalog.jsonb_array_elements(s.filters) f
  loop
    select pg_catalog.format_type(a.atttypid, a.atttypmod),
           pg_catalog.format('%I.%I', n.nspname, c.relname)
      into v_type, v_qualified
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where a.attrelid = filter_group.entity and a.attname = filter_group.col and a.attnum > 0
      and not a.attisdropped;
    continue when v_type is null;
    v_op := case filter_group.op
      when 'eq' then '='
      when 'in' then '='
      when 'neq' then '<>'
      when 'lt' then '<'
      when 'lte' then '<='
      when 'gt' then '>'
      when 'gte' then '>='
    end;
    continue when v_op is null;
    begin
      -- Equality (eq, and in as one equality per listed value) is hash-joined: many subscribers
      -- with a filter each (user_id=eq.<me>) cost one pass over the changes, not changes x filters.
      -- Comparisons cannot be hashed: they need the nested loop.
      if v_op <> '=' then
        perform pg_catalog.set_config('enable_nestloop', 'on', true);
      end if;
      execute pg_catalog.format(
        $sql$
        with ch as materialized (
          select c.id,
                 (pg_catalog.jsonb_populate_record(null::%1$s,
                    case when c.action = 'DELETE' then c.old_record else c.record end)).%2$I as v
          from pg_catalog.unnest($1) c
          where c.entity = $3
        ), fl as materialized (
          select s.id, f.ord, %3$s as v
          from pg_catalog.unnest($2) s,
               pg_catalog.jsonb_array_elements(s.filters) with ordinality f(value, ord)
          where s.entity = $3 and f.value ->> 'column' = $4 and f.value ->> 'op' = $5
        )
        select coalesce(pg_catalog.array_agg(row(ch.id, fl.id, fl.ord)::realtime.filter_pass), '{}')
        from ch join fl on ch.v %4$s fl.v
        $sql$,
        v_qualified,
        filter_group.col,
        case when filter_group.op = 'in'
          then pg_catalog.format('pg_catalog.unnest((f.value ->> %L)::%s[])', 'value', v_type)
          else pg_catalog.format('(f.value ->> %L)::%s', 'value', v_type)
        end,
        v_op
      ) into v_more using v_changes, v_subs, filter_group.entity, filter_group.col, filter_group.op;
      perform pg_catalog.set_config('enable_nestloop', 'off', true);
      v_pass := v_pass || v_more;
    exception when others then
      -- A filter that cannot be evaluated any more (e.g. the column's type changed) lets nothing through.
      raise warning 'realtime: filter on %.% could not be evaluated: %', v_qualified, filter_group.col, sqlerrm;
    end;
  end loop;

  -- Candidate (change, subscription) pairs: the subscriptions without filters for every change of
  -- their table and action, and those whose every filter passed. (Materialised CTEs keep the
  -- planner from pairing every change with every subscription first.)
  with ch as materialized (
    select c.id, c.entity, c.action from pg_catalog.unnest(v_changes) c
  ), unfiltered as materialized (
    select s.id, s.entity, s.action from pg_catalog.unnest(v_subs) s
    where pg_catalog.jsonb_array_length(s.filters) = 0
  ), passed as materialized (
    select p.change_id, p.subscription_id, count(distinct p.ord) as n
    from pg_catalog.unnest(v_pass) p
    group by 1, 2
  ), filtered as materialized (
    select passed.change_id, s.id, s.entity, s.action
    from passed join pg_catalog.unnest(v_subs) s on s.id = passed.subscription_id
    where passed.n = pg_catalog.jsonb_array_length(s.filters)
  )
  select pg_catalog.array_agg(row(x.change_id, x.subscription_id)::realtime.pair) into v_pairs
  from (
    select ch.id as change_id, u.id as subscription_id
    from ch join unfiltered u on u.entity = ch.entity and (u.action = '*' or u.action = ch.action)
    union all
    select f.change_id, f.id
    from filtered f join ch on ch.id = f.change_id
    where f.entity = ch.entity and (f.action = '*' or f.action = ch.action)
  ) x;

  if v_pairs is null then
    return next (v_last, null, null)::realtime.delivery;
    return;
  end if;

  -- Identities (table, role, claims) with the changes each is to be checked for.
  with p as materialized (
    select * from pg_catalog.unnest(v_pairs)
  ), s as materialized (
    select s.id, s.entity, s.claims_role, s.claims from pg_catalog.unnest(v_subs) s
    where s.id in (select p.subscription_id from p)
  ), g as materialized (
    select pg_catalog.row_number() over () as gid, d.entity, d.claims_role, d.claims
    from (select distinct s.entity, s.claims_role, s.claims from s) d
  ), members as materialized (
    select s.id, s.entity, g.gid
    from s join g on g.entity = s.entity and g.claims_role = s.claims_role and g.claims = s.claims
  ), ch as materialized (
    select c.id, c.entity, c.action, c.record from pg_catalog.unnest(v_changes) c
  ), gc as materialized (
    -- A subscription id spans several tables when its binding names a whole schema: each change goes
    -- only to the identity of its own table, whose policies judge it.
    select distinct members.gid, p.change_id
    from p
    join members on members.id = p.subscription_id
    join ch on ch.id = p.change_id and ch.entity = members.entity
  ), per_group as (
    select gc.gid,
           pg_catalog.array_agg(ch.id) filter (where ch.action = 'DELETE') as deletes,
           pg_catalog.array_agg(ch.id order by ch.id) filter (where ch.action <> 'DELETE') as check_ids,
           pg_catalog.array_agg(ch.record order by ch.id) filter (where ch.action <> 'DELETE') as check_records
    from gc join ch on ch.id = gc.change_id
    group by gc.gid
  )
  select pg_catalog.array_agg(row(g.gid, g.entity, g.claims_role, g.claims,
                                  per_group.deletes, per_group.check_ids, per_group.check_records
                                 )::realtime.identity_group order by g.gid),
         (select pg_catalog.array_agg(row(members.id, members.gid)::realtime.member) from members)
    into v_groups, v_members
  from g join per_group on per_group.gid = g.gid;

  -- What each (table, role) may see of the table, once per batch, and the query that checks rows.
  select pg_catalog.array_agg(row(
           e.entity, e.role, n.nspname, c.relname, cols.columns, cols.visible, cols.all_visible, keys.pk,
           keys.index_identity, c.relrowsecurity, keys.can_select,
           chk.check_sql
         )::realtime.entity_meta)
    into v_meta
  from (select distinct g.entity, g.role from pg_catalog.unnest(v_groups) g) e
  join pg_catalog.pg_class c on c.oid = e.entity
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  cross join lateral (
    select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('name', a.attname, 'type', t.typname)
                                         order by a.attnum) filter (where a.selectable), '[]'::jsonb) as columns,
           coalesce(pg_catalog.array_agg(a.attname::text order by a.attnum) filter (where a.selectable), '{}') as visible,
           coalesce(pg_catalog.bool_and(a.selectable), true) as all_visible
    from (
      select a.attname, a.attnum, a.atttypid,
             pg_catalog.has_column_privilege(e.role, e.entity, a.attname, 'SELECT') as selectable
      from pg_catalog.pg_attribute a
      where a.attrelid = e.entity and a.attnum > 0 and not a.attisdropped
    ) a
    join pg_catalog.pg_type t on t.oid = a.atttypid
  ) cols
  cross join lateral (
    select (
             select pg_catalog.array_agg(a.attname::text order by a.attnum)
             from pg_catalog.pg_index i
             join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
             where i.indrelid = e.entity and i.indisprimary
           ) as pk,
           coalesce((
             select pg_catalog.array_agg(a.attname::text order by a.attnum)
             from pg_catalog.pg_index i
             join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
             where i.indrelid = e.entity and i.indisreplident
           ), '{}') as index_identity,
           -- Seeing a change needs the right to select the row's primary key.
           coalesce((
             select pg_catalog.bool_and(pg_catalog.has_column_privilege(e.role, e.entity, a.attname, 'SELECT'))
             from pg_catalog.pg_index i
             join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
             where i.indrelid = e.entity and i.indisprimary
           ), pg_catalog.has_table_privilege(e.role, e.entity, 'SELECT')) as can_select
  ) keys
  cross join lateral (
    select case when keys.pk is not null then pg_catalog.format(
               $sql$
               select pg_catalog.array_agg(x.id)
               from unnest($1::bigint[], $2::jsonb[]) x(id, rec)
               where exists (
                 select 1 from %1$I.%2$I t, pg_catalog.jsonb_populate_record(null::%1$I.%2$I, x.rec) r
                 where %3$s
               )
               $sql$,
               n.nspname, c.relname,
               -- The row must still be there, and the columns the SELECT policies read (PostgreSQL
               -- records them as the policies' dependencies) must still hold the change's values:
               -- then the policies judge the change's version of the row as they judge it now.
               (select pg_catalog.string_agg(pg_catalog.format('t.%1$I = r.%1$I', k), ' and ')
                from pg_catalog.unnest(keys.pk) k)
               || coalesce((
                 select pg_catalog.string_agg(
                          pg_catalog.format(' and (t.%1$I)::text is not distinct from (r.%1$I)::text', a.attname), '')
                 from (
                   select distinct a.attname
                   from pg_catalog.pg_policy pol
                   join pg_catalog.pg_depend d
                     on d.classid = 'pg_catalog.pg_policy'::regclass and d.objid = pol.oid
                    and d.refclassid = 'pg_catalog.pg_class'::regclass and d.refobjid = pol.polrelid
                    and d.refobjsubid > 0
                   join pg_catalog.pg_attribute a on a.attrelid = pol.polrelid and a.attnum = d.refobjsubid
                   where pol.polrelid = e.entity and pol.polcmd in ('r', '*')
                 ) a
                 where a.attname::text <> all (keys.pk)
               ), '')
             ) end as query,
           -- IMMUTABLE functions other than PostgreSQL's own in the SELECT policies: PostgreSQL may
           -- evaluate them once, when planning, and a cached plan would then keep one subscriber's
           -- answer for the next (a function marked IMMUTABLE that reads the claims). Such tables keep
           -- a query planned for each identity.
           exists (
             select 1
             from pg_catalog.pg_policy pol
             join pg_catalog.pg_depend d
               on d.classid = 'pg_catalog.pg_policy'::regclass and d.objid = pol.oid
              and d.refclassid = 'pg_catalog.pg_proc'::regclass
             join pg_catalog.pg_proc p on p.oid = d.refobjid
             where pol.polrelid = e.entity and pol.polcmd in ('r', '*') and p.provolatile = 'i'
               and p.pronamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
           ) as planned_each_time
  ) q
  cross join lateral (
    -- Only tables whose rows are checked get a generated function.
    select case
             when q.query is null or not c.relrowsecurity or not keys.can_select or q.planned_each_time
               then q.query
             else realtime.check_call(q.query)
           end as check_sql
  ) chk;

  -- 2. Row-level security, once per identity and table for all of the batch's rows. The role is
  -- switched only when it changes (identities mostly share `authenticated`); while it is switched,
  -- only plain arrays are touched (the API roles may not use the realtime schema).
  perform pg_catalog.set_config('enable_nestloop', 'on', true);
  foreach v_group in array v_groups loop
    v_m := null;
    foreach v_m in array v_meta loop
      exit when v_m.entity = v_group.entity and v_m.role = v_group.role;
    end loop;
    continue when v_m.entity is distinct from v_group.entity or v_m.role is distinct from v_group.role
      or not v_m.can_select;

    -- Deletes, and rows of tables without row-level security, need no per-row check.
    v_seen := coalesce(v_group.deletes, '{}');
    if not v_m.rls or v_m.pk is null then
      v_seen := v_seen || coalesce(v_group.check_ids, '{}');
    elsif v_group.check_ids is not null then
      if v_role is distinct from v_group.role then
        perform pg_catalog.set_config('role', v_group.role, true);
        v_role := v_group.role;
      end if;
      begin
        perform pg_catalog.set_config('request.jwt.claims', v_group.claims::text, true);
        execute v_m.check_sql into v_ids using v_group.check_ids, v_group.check_records;
        v_seen := v_seen || coalesce(v_ids, '{}');
      exception when others then
        -- A policy that fails for this identity shows it nothing.
        null;
      end;
    end if;
    if pg_catalog.cardinality(v_seen) > 0 then
      v_visible_changes := v_visible_changes || v_seen;
      v_visible_groups := v_visible_groups || pg_catalog.array_fill(v_group.gid, array[pg_catalog.cardinality(v_seen)]);
    end if;
  end loop;
  perform pg_catalog.set_config('role', 'none', true), pg_catalog.set_config('request.jwt.claims', '', true),
          pg_catalog.set_config('enable_nestloop', 'off', true);

  -- 3. One payload per change and role, addressed to every subscription that may see it.
  return query
  with vis as materialized (
    select distinct v.gid, v.change_id from unnest(v_visible_groups, v_visible_changes) v(gid, change_id)
  ), members as materialized (
    select m.subscription_id, m.gid from pg_catalog.unnest(v_members) m
  ), groups as materialized (
    select g.gid, g.role from pg_catalog.unnest(v_groups) g
  ), paired as materialized (
    -- Each pair with its identity first: joining pairs on the change first would pair every
    -- subscriber of a fanned-out change with every identity that may see it (n² rows).
    select p.change_id, p.subscription_id, members.gid
    from pg_catalog.unnest(v_pairs) p
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
  join pg_catalog.unnest(v_changes) c on c.id = g.change_id
  join pg_catalog.unnest(v_meta) m on m.entity = c.entity and m.role = g.role
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

  return next (v_last, null, null)::realtime.delivery;
end
$$;

revoke all on function realtime.apply_changes(uuid, bigint, bigint, int, int, int, int) from public;
