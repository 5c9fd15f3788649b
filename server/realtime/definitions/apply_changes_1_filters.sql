-- Stage 1 of realtime.apply_changes (apply_changes.sql): which subscriptions each change of the batch
-- may go to by their filters. Returns the candidate (change, subscription) pairs, null when none.

create or replace function realtime.filter_changes(
  p_changes realtime.changes[],
  p_subs realtime.subscriptions[]
) returns realtime.pair[]
language plpgsql
volatile
as $$
declare
  v_pass realtime.filter_pass[] := '{}';
  v_more realtime.filter_pass[];
  v_pairs realtime.pair[];
  v_qualified text;
  v_type text;
  v_op text;
  filter_group record;
begin
  -- One set-wise query per (table, column, operator).
  for filter_group in
    select distinct s.entity, f.value ->> 'column' as col, f.value ->> 'op' as op
    from pg_catalog.unnest(p_subs) s, pg_catalog.jsonb_array_elements(s.filters) f
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
      ) into v_more using p_changes, p_subs, filter_group.entity, filter_group.col, filter_group.op;
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
    select c.id, c.entity, c.action from pg_catalog.unnest(p_changes) c
  ), unfiltered as materialized (
    select s.id, s.entity, s.action from pg_catalog.unnest(p_subs) s
    where pg_catalog.jsonb_array_length(s.filters) = 0
  ), passed as materialized (
    select p.change_id, p.subscription_id, count(distinct p.ord) as n
    from pg_catalog.unnest(v_pass) p
    group by 1, 2
  ), filtered as materialized (
    select passed.change_id, s.id, s.entity, s.action
    from passed join pg_catalog.unnest(p_subs) s on s.id = passed.subscription_id
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
  return v_pairs;
end
$$;

revoke all on function realtime.filter_changes(realtime.changes[], realtime.subscriptions[]) from public;
