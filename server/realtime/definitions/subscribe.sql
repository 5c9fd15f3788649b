-- Subscribing. Resolves a binding's schema/table (either may be '*') against the publication, checks
-- every filter against the table (the column exists, the value is of the column's type) and records
-- one subscription row per matching table. Raises with a message meant for the subscriber.

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
