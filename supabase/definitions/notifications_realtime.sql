-- Live notifications over Realtime Authorization (issue 24, decision 147): every new notification
-- is also broadcast on the private channel `user:<recipient id>` (event `INSERT`, Supabase's
-- broadcast_changes payload: {operation, table, schema, record, old_record}), and a member may join
-- only their own such channel. The table stays published for postgres_changes as well
-- (20261122200000_realtime_publication.sql).
--
-- Written with Supabase's own realtime functions and table, so it applies to a hosted project too.

-- Runs as its owner, which may write realtime.messages whatever the inserting role's policies.
-- Once per statement, over the new rows: each goes to its recipient's topic as
-- realtime.broadcast_changes would send it (event INSERT, payload {old_record, record, operation,
-- table, schema}), through realtime.send. A row trigger calling broadcast_changes was over half of a
-- notification's cost to write (0.12 of 0.21 ms a row in a batch of 500: a trigger call and two
-- exception blocks per row, issue 40); this keeps realtime.send's one.
create or replace function private.broadcast_notification() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform realtime.send(
    jsonb_build_object('old_record', null, 'record', to_jsonb(n), 'operation', tg_op,
      'table', tg_table_name, 'schema', tg_table_schema),
    tg_op, 'user:' || n.user_id::text)
  from inserted n;
  return null;
end
$$;
revoke all on function private.broadcast_notification() from public;

create or replace trigger broadcast_notification after insert on public.notifications
  referencing new table as inserted for each statement execute function private.broadcast_notification();

-- Who may read a private channel: a signed-in member, their own `user:<id>` topic, its broadcasts.
-- No INSERT policy: members cannot send on it (only the database does).
drop policy if exists "realtime: members read their own user topic" on realtime.messages;
create policy "realtime: members read their own user topic" on realtime.messages
  for select to authenticated
  using (extension = 'broadcast' and realtime.topic() = 'user:' || (select auth.uid())::text);
