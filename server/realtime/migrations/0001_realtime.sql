-- The realtime service's schema (see server/realtime/architecture.md and decisions 050-059).
--
-- Change capture happens in the database so that every server process sees every change:
--  * the `supabase_realtime` publication says which tables are published (as on Supabase:
--    `alter publication supabase_realtime add table ...`);
--  * a deferred constraint trigger on each published table records each row change in
--    `realtime.changes` at commit time, under one advisory lock, so change ids follow commit order,
--    and wakes the servers with one NOTIFY per transaction (never for rolled-back transactions);
--  * each server process (a row in `realtime.nodes`) reads the changes after its cursor and asks
--    `realtime.apply_changes` which of its subscribers may see them: filters and row-level security
--    are evaluated here, for all subscribers of the process in one round trip.
--
-- Nothing in this schema is reachable by the API roles (anon, authenticated, service_role).

create schema if not exists realtime;
revoke all on schema realtime from public;

do $$
begin
  if not exists (select 1 from pg_catalog.pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------------
-- Server processes. Each running server registers itself with a cursor (the last change it read) and
-- a heartbeat; processes that stop beating are removed by the others, with their subscriptions and
-- presences.
-- ---------------------------------------------------------------------------------------------------

create table if not exists realtime.nodes (
  id uuid primary key,
  cursor bigint not null default 0,
  started_at timestamptz not null default now(),
  heartbeat_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------------
-- Captured row changes, in commit order. Rows are removed once every live process has read them.
-- ---------------------------------------------------------------------------------------------------

create table if not exists realtime.changes (
  id bigint generated always as identity primary key,
  entity oid not null,
  action text not null check (action in ('INSERT', 'UPDATE', 'DELETE')),
  record jsonb,
  old_record jsonb,
  -- The table's replica identity when the change was made ('d'efault, 'f'ull, 'i'ndex, 'n'othing):
  -- which old values an UPDATE or DELETE carries, as logical replication would have logged them.
  replica_identity "char",
  created_at timestamptz not null default clock_timestamp()
);

-- ---------------------------------------------------------------------------------------------------
-- postgres_changes subscriptions: one row per channel binding and published table it matches.
-- `filters` is a list of {column, op, value}; `claims` and `claims_role` are the subscriber's
-- identity, checked against row-level security for every change.
-- ---------------------------------------------------------------------------------------------------

create table if not exists realtime.subscriptions (
  id uuid not null,
  entity oid not null,
  node_id uuid not null references realtime.nodes (id) on delete cascade,
  action text not null check (action in ('*', 'INSERT', 'UPDATE', 'DELETE')),
  filters jsonb not null default '[]',
  claims jsonb not null,
  claims_role text not null,
  created_at timestamptz not null default now(),
  primary key (id, entity)
);

create index if not exists subscriptions_node_entity_idx on realtime.subscriptions (node_id, entity);

-- ---------------------------------------------------------------------------------------------------
-- Presence: who is tracked on which topic, shared by all processes.
-- ---------------------------------------------------------------------------------------------------

create table if not exists realtime.presences (
  ref text primary key,
  node_id uuid not null references realtime.nodes (id) on delete cascade,
  topic text not null,
  key text not null,
  meta jsonb not null,
  created_at timestamptz not null default clock_timestamp()
);

create index if not exists presences_topic_idx on realtime.presences (topic, created_at);
create index if not exists presences_node_idx on realtime.presences (node_id);

-- Cross-process messages too large for a NOTIFY payload (8000 bytes) travel through this table;
-- the NOTIFY then carries only the row's id.
create table if not exists realtime.messages (
  id bigint generated always as identity primary key,
  body text not null,
  created_at timestamptz not null default now()
);

revoke all on all tables in schema realtime from public;

-- ---------------------------------------------------------------------------------------------------
-- Capture. The trigger is a deferred constraint trigger, so it runs when the transaction commits
-- (rolled-back work never gets here). The advisory lock makes committing writers of published tables
-- take change ids one transaction at a time, in the order they commit, so a reader that has seen id N
-- has seen every id below N. NOTIFY payloads are identical within a transaction, which PostgreSQL
-- folds into a single notification.
-- ---------------------------------------------------------------------------------------------------

create or replace function realtime.capture_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(7355608422);
  insert into realtime.changes (entity, action, record, old_record, replica_identity)
  values (
    tg_relid,
    tg_op,
    case when tg_op <> 'DELETE' then pg_catalog.to_jsonb(new) end,
    case when tg_op <> 'INSERT' then pg_catalog.to_jsonb(old) end,
    case when tg_op <> 'INSERT' then (select c.relreplident from pg_catalog.pg_class c where c.oid = tg_relid) end
  );
  perform pg_catalog.pg_notify('realtime_changes', '');
  return null;
end
$$;

revoke all on function realtime.capture_change() from public;

-- Installs the capture trigger on every table of the publication and removes it from tables that
-- left it. Idempotent; runs on publication DDL (event trigger below), at server start-up and on every
-- server heartbeat, so the triggers follow the publication even where event triggers are unavailable.
create or replace function realtime.sync_publication_triggers() returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  target record;
begin
  for target in
    select c.oid::regclass as rel
    from pg_catalog.pg_publication_tables pt
    join pg_catalog.pg_namespace n on n.nspname = pt.schemaname
    join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = pt.tablename
    where pt.pubname = 'supabase_realtime'
      and c.relkind = 'r'
      and not exists (
        select 1 from pg_catalog.pg_trigger t where t.tgrelid = c.oid and t.tgname = 'realtime_capture'
      )
  loop
    execute pg_catalog.format(
      'create constraint trigger realtime_capture after insert or update or delete on %s '
      'deferrable initially deferred for each row execute function realtime.capture_change()',
      target.rel
    );
  end loop;

  for target in
    select t.tgrelid::regclass as rel
    from pg_catalog.pg_trigger t
    where t.tgname = 'realtime_capture'
      and not exists (
        select 1
        from pg_catalog.pg_publication_tables pt
        join pg_catalog.pg_namespace n on n.nspname = pt.schemaname
        join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = pt.tablename
        where pt.pubname = 'supabase_realtime' and c.oid = t.tgrelid
      )
  loop
    execute pg_catalog.format('drop trigger realtime_capture on %s', target.rel);
  end loop;
end
$$;

revoke all on function realtime.sync_publication_triggers() from public;

-- Runs the sync after publication and table DDL. It never makes the DDL fail: a problem is reported
-- as a warning and the next server heartbeat syncs again.
create or replace function realtime.sync_on_ddl() returns event_trigger
language plpgsql
as $$
begin
  perform realtime.sync_publication_triggers();
exception when others then
  raise warning 'realtime: could not sync capture triggers with the publication: %', sqlerrm;
end
$$;

-- Event triggers need a superuser; where the migration runs without one, the start-up and heartbeat
-- syncs keep the triggers in step.
do $$
begin
  if not exists (select 1 from pg_catalog.pg_event_trigger where evtname = 'realtime_publication_sync') then
    create event trigger realtime_publication_sync on ddl_command_end
      when tag in ('CREATE PUBLICATION', 'ALTER PUBLICATION', 'DROP PUBLICATION', 'CREATE TABLE',
                   'CREATE TABLE AS', 'SELECT INTO')
      execute function realtime.sync_on_ddl();
  end if;
exception when insufficient_privilege then
  raise notice 'realtime: no event trigger (not a superuser); capture triggers sync at server start-up';
end
$$;

-- ---------------------------------------------------------------------------------------------------
-- Subscribing. Resolves a binding's schema/table (either may be '*') against the publication, checks
-- every filter against the table (the column exists, the value is of the column's type) and records
-- one subscription row per matching table. Raises with a message meant for the subscriber.
-- ---------------------------------------------------------------------------------------------------

create or replace function realtime.subscribe(
  p_node uuid,
  p_id uuid,
  p_schema text,
  p_table text,
  p_action text,
  p_filters jsonb,
  p_claims jsonb,
  p_role text
) returns int
language plpgsql
as $$
declare
  target record;
  filter jsonb;
  column_type text;
  matched int := 0;
begin
  for target in
    select c.oid as entity, pt.schemaname, pt.tablename
    from pg_catalog.pg_publication_tables pt
    join pg_catalog.pg_namespace n on n.nspname = pt.schemaname
    join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = pt.tablename
    where pt.pubname = 'supabase_realtime'
      and (p_schema = '*' or pt.schemaname = p_schema)
      and (p_table = '*' or pt.tablename = p_table)
  loop
    for filter in select value from pg_catalog.jsonb_array_elements(p_filters) loop
      select pg_catalog.format_type(a.atttypid, a.atttypmod) into column_type
      from pg_catalog.pg_attribute a
      where a.attrelid = target.entity and a.attname = filter ->> 'column' and a.attnum > 0
        and not a.attisdropped;
      if column_type is null then
        raise exception 'invalid column for filter %', filter ->> 'column';
      end if;
      begin
        execute pg_catalog.format(
          'select $1::%s',
          case when filter ->> 'op' = 'in' then column_type || '[]' else column_type end
        ) using filter ->> 'value';
      exception when others then
        raise exception 'invalid value for filter % (%): %', filter ->> 'column', column_type, sqlerrm;
      end;
    end loop;
    insert into realtime.subscriptions (id, entity, node_id, action, filters, claims, claims_role)
    values (p_id, target.entity, p_node, p_action, p_filters, p_claims, p_role)
    on conflict (id, entity) do update
      set filters = excluded.filters, claims = excluded.claims, claims_role = excluded.claims_role;
    matched := matched + 1;
  end loop;
  return matched;
end
$$;

revoke all on function realtime.subscribe(uuid, uuid, text, text, text, jsonb, jsonb, text) from public;

-- ---------------------------------------------------------------------------------------------------
-- Applying changes: which subscribers of one process receive which of the next changes, and what
-- they receive. One call per batch of changes, whatever the number of subscribers:
--  1. the filters of all subscriptions are evaluated set-wise, one query per (table, column,
--     operator), with PostgreSQL's own comparison of the column's type;
--  2. row-level security is checked once per distinct identity (role + claims) and table, for all of
--     the batch's rows at once, by selecting those rows by primary key as that identity; the row
--     must still hold the change's values in every column the table's SELECT policies read, so the
--     policies judge the version of the row the change carries (a row deleted or moved to another
--     owner before the change is processed is not delivered: fail closed);
--  3. the payload is built once per change and role (columns the role may not select are left out).
-- DELETE events cannot be checked against row-level security (the row is gone); as on Supabase
-- their old_record then carries only the primary key. Filters do apply to deletes (on the old row).
-- ---------------------------------------------------------------------------------------------------

do $$
begin
  if not exists (select 1 from pg_catalog.pg_type where typname = 'delivery' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.delivery as (change_id bigint, payload text, subscription_ids uuid[]);
  end if;
  if not exists (select 1 from pg_catalog.pg_type where typname = 'filter_pass' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.filter_pass as (change_id bigint, subscription_id uuid, ord bigint);
  end if;
  if not exists (select 1 from pg_catalog.pg_type where typname = 'pair' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.pair as (change_id bigint, subscription_id uuid);
  end if;
  if not exists (select 1 from pg_catalog.pg_type where typname = 'identity_group' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.identity_group as (
      gid bigint, entity oid, role text, claims jsonb,
      deletes bigint[], check_ids bigint[], check_records jsonb[]
    );
  end if;
  if not exists (select 1 from pg_catalog.pg_type where typname = 'member' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.member as (subscription_id uuid, gid bigint);
  end if;
  if not exists (select 1 from pg_catalog.pg_type where typname = 'entity_meta' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.entity_meta as (
      entity oid, role text, schema_name text, table_name text, columns jsonb, visible text[],
      all_visible boolean, pk text[], index_identity text[], rls boolean, can_select boolean,
      check_sql text
    );
  end if;
end
$$;

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
  update realtime.nodes set cursor = greatest(cursor, v_last) where id = p_node;

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
    select s.id, g.gid from s join g on g.entity = s.entity and g.claims_role = s.claims_role and g.claims = s.claims
  ), gc as materialized (
    select distinct members.gid, p.change_id from p join members on members.id = p.subscription_id
  ), ch as materialized (
    select c.id, c.action, c.record from pg_catalog.unnest(v_changes) c
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
           case when keys.pk is not null then pg_catalog.format(
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
           ) end
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
  ) keys;

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
  ), addressed as materialized (
    select p.change_id, groups.role, p.subscription_id
    from pg_catalog.unnest(v_pairs) p
    join members on members.subscription_id = p.subscription_id
    join vis on vis.gid = members.gid and vis.change_id = p.change_id
    join groups on groups.gid = members.gid
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

-- The last change id of the next batch: parallel shards of one batch all read up to it.
create or replace function realtime.batch_end(p_after bigint, p_limit int) returns bigint
language sql
stable
as $$
  select max(id) from (
    select c.id from realtime.changes c where c.id > p_after order by c.id limit p_limit
  ) batch
$$;

revoke all on function realtime.batch_end(bigint, int) from public;

-- ---------------------------------------------------------------------------------------------------
-- Housekeeping, once per heartbeat of each process: mark it alive, remove processes that stopped
-- beating (with their subscriptions and presences, which are returned so the caller can announce the
-- leaves), forget changes every live process has read and cross-process messages nobody needs.
-- Returns null when the calling process was itself removed (it then registers again).
-- ---------------------------------------------------------------------------------------------------

create or replace function realtime.heartbeat(p_node uuid, p_dead_after interval, p_keep interval)
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
  delete from realtime.messages m where m.created_at < now() - interval '1 minute';
end
$$;

revoke all on function realtime.heartbeat(uuid, interval, interval) from public;

-- ---------------------------------------------------------------------------------------------------
-- Cross-process messages (broadcasts and presence diffs between server processes on one database).
-- NOTIFY payloads are limited to 8000 bytes: larger messages are stored and only their id is sent.
-- ---------------------------------------------------------------------------------------------------

create or replace function realtime.publish(p_node text, p_payloads text[]) returns void
language plpgsql
as $$
declare
  v_payload text;
  v_id bigint;
begin
  foreach v_payload in array p_payloads loop
    if pg_catalog.octet_length(v_payload) <= 7900 then
      perform pg_catalog.pg_notify('realtime_bus', v_payload);
    else
      insert into realtime.messages (body) values (v_payload) returning id into v_id;
      perform pg_catalog.pg_notify(
        'realtime_bus', pg_catalog.json_build_object('n', p_node, 'stored', v_id::text)::text
      );
    end if;
  end loop;
end
$$;

revoke all on function realtime.publish(text, text[]) from public;
