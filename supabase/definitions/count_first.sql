-- Count first (decision 256): for a search whose plan must not rest on the planner's estimate of how
-- many rows match. The caller counts the matches through the indexes, up to a cap, and then sorts the
-- few it found or, when there are more, walks its order's index (where at least one row in n / cap
-- matches, so a page is met soon). Used by public.search_products, the admins' find functions
-- (articles, brands, products, merge targets) and public.admin_find_members.

-- The cap for a page of p_rows from p_table: √(p_rows × n), at least 500, so that sorting the matches
-- and walking the order read about as many rows at most. n is the table's size as PostgreSQL last
-- counted it.
create or replace function private.count_first_cap(p_table regclass, p_rows integer) returns integer
language sql stable set search_path = ''
as $$
  select greatest(500, ceil(pg_catalog.sqrt(greatest(p_rows, 1)::double precision * greatest(c.reltuples, 0))))::integer
  from pg_catalog.pg_class c where c.oid = p_table
$$;
revoke all on function private.count_first_cap(regclass, integer) from public, anon, authenticated;

-- The ids `p_select` returns, in its order. Counting (p_walk false; the statement has its own limit,
-- cap + 1): bitmap scans only, so the trigram and filter indexes find the candidates and no plan may
-- read in some order until it has enough (what an overestimate makes the planner choose). Walking
-- (p_walk true, for many matches; the statement orders and limits to a page): no sort, no bitmap and
-- no sequential scan, so the order's index is read until the page is full. The settings end with the
-- function (its SET clauses). The statement is built by the caller, every value a literal (%L). A
-- counting statement puts its search's condition alone in a subquery (`offset 0`) with the other
-- conditions outside: a partial index whose own condition is among them (`status = 'published'`,
-- `archived_at is null`) is a bitmap scan too, and would offer every such row as the candidates.
-- No parallel workers (decision 271): a count reads at most its cap and a walk a few pages, and
-- starting two workers cost 40–50 ms here, where the count they ran took 0.2 ms (bench/README).
create or replace function private.count_first_ids(p_select text, p_walk boolean default false) returns text[]
language plpgsql stable set search_path = ''
set max_parallel_workers_per_gather = 0
set enable_seqscan = on
set enable_indexscan = on
set enable_indexonlyscan = on
set enable_bitmapscan = on
set enable_sort = on
as $$
declare
  v_ids text[];
begin
  perform pg_catalog.set_config('enable_seqscan', 'off', true);
  if p_walk then
    perform pg_catalog.set_config('enable_bitmapscan', 'off', true);
    perform pg_catalog.set_config('enable_sort', 'off', true);
  else
    perform pg_catalog.set_config('enable_indexscan', 'off', true);
    perform pg_catalog.set_config('enable_indexonlyscan', 'off', true);
  end if;
  execute 'select array(' || p_select || ')' into v_ids;
  return coalesce(v_ids, '{}');
end
$$;
revoke all on function private.count_first_ids(text, boolean) from public, anon, authenticated;

-- The three steps at once: the ids `p_count` finds (counting, its limit cap + 1); at most p_cap of
-- them are sorted by `p_sort` (a statement with one %L for the ids, counting too: read by id); more,
-- and `p_walk` walks the order for a page instead. Returns the page's ids in order.
create or replace function private.count_first_page(p_count text, p_sort text, p_walk text, p_cap integer)
returns text[]
language plpgsql stable set search_path = ''
as $$
declare
  v_ids text[] := private.count_first_ids(p_count);
begin
  if cardinality(v_ids) = 0 then
    return v_ids;
  elsif cardinality(v_ids) <= p_cap then
    return private.count_first_ids(format(p_sort, v_ids));
  end if;
  return private.count_first_ids(p_walk, true);
end
$$;
revoke all on function private.count_first_page(text, text, text, integer) from public, anon, authenticated;

-- A short walk first, then count first (decision 263): `p_first` walks the first few pages' worth of
-- the order (the caller bounds it) and keeps the rows that match; if they fill the page of p_rows,
-- that is the page, at a cost that does not grow with the table — which a common word gets, spread
-- through the order. Otherwise the three steps of count_first_page. A rare word pays the short walk.
create or replace function private.walk_then_count_page(
  p_first text,
  p_rows integer,
  p_count text,
  p_sort text,
  p_walk text,
  p_cap integer
)
returns text[]
language plpgsql stable set search_path = ''
as $$
declare
  v_ids text[] := private.count_first_ids(p_first, true);
begin
  if cardinality(v_ids) >= p_rows then
    return v_ids;
  end if;
  return private.count_first_page(p_count, p_sort, p_walk, p_cap);
end
$$;
revoke all on function private.walk_then_count_page(text, integer, text, text, text, integer)
  from public, anon, authenticated;

-- PostgreSQL's estimate of the rows `p_select` returns (its plan's top row count, as the data API's
-- `count=estimated` reads it above its cap, decision 252): a total past what a search counted
-- (decision 280). Volatile, because EXPLAIN is a utility statement, which a stable function may not
-- run itself; the stable search functions call this.
create or replace function private.estimated_rows(p_select text) returns bigint
language plpgsql volatile set search_path = ''
as $$
declare
  v_plan jsonb;
begin
  execute 'explain (format json) ' || p_select into v_plan;
  return coalesce((v_plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric, 0)::bigint;
end
$$;
revoke all on function private.estimated_rows(text) from public, anon, authenticated;
