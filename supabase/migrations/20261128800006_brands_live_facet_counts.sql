-- The brand directory's count of live brands in each state and each category, kept as brands are
-- written (decision 253, refining 250): a page filtered by one state or one category said "N brands" by
-- counting the state's or category's live brands per request, which grows with the directory (issue 40
-- part 4, bench/scale.ts: page 40 of a category cost 2.2× at ten times the brands). The triggers that
-- keep it are in definitions/brands_directory.sql, beside those of the unfiltered count.
create table if not exists private.brands_live_facet_counts (
  facet text not null constraint brands_live_facet_counts_facet check (facet in ('state', 'category')),
  value text not null,
  -- No check that live >= 0: an upsert's proposed row (a negative change to a value not yet counted)
  -- is checked before its conflict is found, so the triggers could not move a count down.
  live bigint not null,
  primary key (facet, value)
);
insert into private.brands_live_facet_counts (facet, value, live)
select f.facet, f.value, count(*)
from public.brands b
cross join lateral (
  select 'state' as facet, s as value from unnest(b.states) s where s is not null
  union
  select 'category', c from unnest(b.categories) c where c is not null
) f
where b.archived_at is null
group by f.facet, f.value
on conflict (facet, value) do update set live = excluded.live;
revoke all on table private.brands_live_facet_counts from public, anon, authenticated, service_role;
