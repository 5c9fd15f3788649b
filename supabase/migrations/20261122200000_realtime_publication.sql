-- Live notifications (spec §4: "new rows arrive live and show a toast"): publish the notifications
-- table for realtime postgres_changes, the portable Supabase way. Subscribers only ever receive the
-- rows their row-level security lets them select. Guarded so the file can be applied again.
do $$
begin
  if not exists (
    select 1 from pg_publication_tables
    where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'notifications'
  ) then
    alter publication supabase_realtime add table public.notifications;
  end if;
end
$$;
