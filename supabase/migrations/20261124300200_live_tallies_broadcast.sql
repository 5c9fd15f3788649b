-- Live tallies by broadcast (decision 156). Until now every change of public.product_tallies was
-- captured for postgres_changes: a commit-time row in realtime.changes under the capture's advisory
-- lock, and a NOTIFY, whose commit-order lock PostgreSQL holds to the end of the commit. Every vote's
-- commit therefore waited for every other's (no group commit), which capped votes at the rate of
-- one commit flush after another.
--
-- Now the tally trigger only marks the row (`live_pending`), and private.votes_broadcast_tallies()
-- (supabase/definitions/votes_cast.sql), run by every server process each second, takes the marked
-- rows and broadcasts their values on the public topic `product-tallies`: one message per 100
-- changed products per second, whatever the number of votes.

alter table public.product_tallies add column if not exists live_pending boolean not null default false;
comment on column public.product_tallies.live_pending is
  'Changed since the last live broadcast (decision 156); cleared by private.votes_broadcast_tallies().';
create index if not exists product_tallies_live_pending_idx on public.product_tallies (product_id)
  where live_pending;

do $$
begin
  if exists (
    select 1 from pg_publication_tables
    where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'product_tallies'
  ) then
    alter publication supabase_realtime drop table public.product_tallies;
  end if;
end
$$;
