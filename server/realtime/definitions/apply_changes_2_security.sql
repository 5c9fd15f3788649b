-- Stage 2 of realtime.apply_changes (apply_changes.sql): row-level security. The candidate pairs are
-- grouped by identity (table, role, claims); each identity's rows are checked at once, as that role
-- with those claims, by the table's own policies; a policy that fails shows the identity nothing.

-- The statement that runs check query `p_sql` (parameters $1 bigint[] change ids, $2 jsonb[] records)
-- through its generated function in the `realtime_check` schema, creating that function first when it
-- does not exist yet (decision 087). PL/pgSQL keeps the plans of its functions for the session, so an
-- identity costs a call of a cached generic plan instead of planning the table's policies again. The
-- generated function runs as its caller (the subscriber's role, with its claims): the policies judge
-- the rows exactly as a query of the caller's would. It only says which of the rows it is given the
-- caller may select from a table the caller could query itself.

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

-- What each (table, role) of the identities may see of the table, once per batch: the columns the
-- role may select, the keys, whether the table has row-level security, and the query that checks rows.
create or replace function realtime.table_access(p_groups realtime.identity_group[])
returns realtime.entity_meta[]
language plpgsql
volatile
as $$
declare
  v_meta realtime.entity_meta[];
begin
  select pg_catalog.array_agg(row(
           e.entity, e.role, n.nspname, c.relname, cols.columns, cols.visible, cols.all_visible, keys.pk,
           keys.index_identity, c.relrowsecurity, keys.can_select,
           chk.check_sql
         )::realtime.entity_meta)
    into v_meta
  from (select distinct g.entity, g.role from pg_catalog.unnest(p_groups) g) e
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

  return v_meta;
end
$$;

revoke all on function realtime.table_access(realtime.identity_group[]) from public;

-- The identities of the candidate pairs (`o_groups`, with the changes each is to be checked for, and
-- which subscription belongs to which: `o_members`), what each may see of its table (`o_meta`), and
-- which changes each identity may see (`o_visible_groups`[i] may see `o_visible_changes`[i]).
create or replace function realtime.authorize_changes(
  p_changes realtime.changes[],
  p_subs realtime.subscriptions[],
  p_pairs realtime.pair[],
  out o_groups realtime.identity_group[],
  out o_members realtime.member[],
  out o_meta realtime.entity_meta[],
  out o_visible_groups bigint[],
  out o_visible_changes bigint[]
)
language plpgsql
volatile
as $$
declare
  v_role text;
  v_seen bigint[];
  v_ids bigint[];
  v_group realtime.identity_group;
  v_m realtime.entity_meta;
begin
  o_visible_groups := '{}';
  o_visible_changes := '{}';

  -- Identities (table, role, claims) with the changes each is to be checked for.
  with p as materialized (
    select * from pg_catalog.unnest(p_pairs)
  ), s as materialized (
    select s.id, s.entity, s.claims_role, s.claims from pg_catalog.unnest(p_subs) s
    where s.id in (select p.subscription_id from p)
  ), g as materialized (
    select pg_catalog.row_number() over () as gid, d.entity, d.claims_role, d.claims
    from (select distinct s.entity, s.claims_role, s.claims from s) d
  ), members as materialized (
    select s.id, s.entity, g.gid
    from s join g on g.entity = s.entity and g.claims_role = s.claims_role and g.claims = s.claims
  ), ch as materialized (
    select c.id, c.entity, c.action, c.record from pg_catalog.unnest(p_changes) c
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
    into o_groups, o_members
  from g join per_group on per_group.gid = g.gid;

  o_meta := realtime.table_access(o_groups);

  -- Once per identity and table for all of the batch's rows. The role is
  -- switched only when it changes (identities mostly share `authenticated`); while it is switched,
  -- only plain arrays are touched (the API roles may not use the realtime schema).
  perform pg_catalog.set_config('enable_nestloop', 'on', true);
  foreach v_group in array o_groups loop
    v_m := null;
    foreach v_m in array o_meta loop
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
      o_visible_changes := o_visible_changes || v_seen;
      o_visible_groups := o_visible_groups || pg_catalog.array_fill(v_group.gid, array[pg_catalog.cardinality(v_seen)]);
    end if;
  end loop;
  perform pg_catalog.set_config('role', 'none', true), pg_catalog.set_config('request.jwt.claims', '', true),
          pg_catalog.set_config('enable_nestloop', 'off', true);
end
$$;

revoke all on function realtime.authorize_changes(realtime.changes[], realtime.subscriptions[], realtime.pair[]) from public;
