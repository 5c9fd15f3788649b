-- The brand directory's count of live brands, kept as brands are written (decision 250): its unfiltered
-- pages said "N brands" by counting every live brand per request, which grows with the directory
-- (issue 40 part 4, bench/scale.ts: 8 ms with 20,000 brands, 127 ms with 220,000). The triggers that
-- keep it are in definitions/brands_directory.sql.
create table if not exists private.brands_live_count (
  id boolean primary key default true constraint brands_live_count_single_row check (id),
  live bigint not null constraint brands_live_count_not_negative check (live >= 0)
);
insert into private.brands_live_count (id, live)
select true, count(*) from public.brands where archived_at is null
on conflict (id) do update set live = excluded.live;
revoke all on table private.brands_live_count from public, anon, authenticated, service_role;
