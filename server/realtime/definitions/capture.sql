-- Change capture (server/realtime/architecture.md, "A change, from commit to socket").
--
-- The trigger is a deferred constraint trigger, so it runs when the transaction commits (rolled-back
-- work never gets here). The advisory lock makes committing writers of published tables take change
-- ids one transaction at a time, in the order they commit, so a reader that has seen id N has seen
-- every id below N. NOTIFY payloads are identical within a transaction, which PostgreSQL folds into a
-- single notification.

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
