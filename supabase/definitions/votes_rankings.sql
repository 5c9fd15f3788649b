-- Rankings (product §pass-or-gas, decision 115). One view lists the live catalogue with every number
-- that places a product: the tallies, the Wilson lower bound (Top) and the Trending score, so anyone
-- can recompute a position from public data. Sort keys: Top `wilson desc, counted desc, id`;
-- Trending `trend_key desc, id` (trend_key orders exactly as trending_score does); New `created_at desc, id`.

-- The ranking formulas, first created in migration 20261124300000, as SQL PostgreSQL can inline
-- (decision 156): no `set search_path` and no subquery, so the planner substitutes their expressions
-- instead of calling a function per tally update (Wilson, in the generated column) and per vote (the
-- Trending weight). Only pg_catalog functions and operators appear in them (pg_catalog is searched
-- first whatever the search_path); the values are those of the first versions (the SQL tests check
-- both against hand-computed ones).

-- Wilson score lower bound of the Gas share at 95 % confidence (z = 1.959964); 0 without votes.
-- p = gas / n, n = gas + pass: (p + z²/2n − z·√((p(1 − p) + z²/4n) / n)) / (1 + z²/n), at least 0.
create or replace function private.votes_wilson(gas integer, pass integer) returns double precision
language sql immutable parallel safe
as $$
  select case when coalesce(gas, 0) + coalesce(pass, 0) <= 0 then 0::double precision else
    greatest(0::double precision,
      (gas::double precision / (gas + pass)
        + 1.959964::double precision * 1.959964::double precision / (2 * (gas + pass))
        - 1.959964::double precision * pg_catalog.sqrt(
            ((gas::double precision / (gas + pass)) * (pass::double precision / (gas + pass))
              + 1.959964::double precision * 1.959964::double precision / (4 * (gas + pass)))
            / (gas + pass)))
      / (1 + 1.959964::double precision * 1.959964::double precision / (gas + pass)))
  end
$$;
revoke execute on function private.votes_wilson(integer, integer) from public, anon, authenticated;

-- One counted vote's weight in `trend`: 2^((t − epoch) / half-life), epoch 2026-01-01 UTC, half-life
-- 48 hours (decision 115).
create or replace function private.votes_trend_weight(at timestamptz) returns double precision
language sql immutable parallel safe
as $$
  select pg_catalog.power(2::double precision,
    extract(epoch from at - timestamptz '2026-01-01 00:00:00+00')::double precision / (48 * 3600))
$$;
grant execute on function private.votes_trend_weight(timestamptz) to anon, authenticated, service_role;

-- The Trending score now: Σ ±2^(−age / 48 h) over counted votes (Gas +, Pass −).
create or replace function public.votes_trending_score(trend double precision, at timestamptz default now())
returns double precision
language sql stable parallel safe set search_path = ''
as $$
  select trend / private.votes_trend_weight(at)
$$;

-- Owner's rights (decision 248): the view's own `archived_at is null` is its row rule, the same rows the
-- tables' policies give every reader (live products; every tally and brand). Run with the reader's
-- rights, products' policy made PostgreSQL keep a reader's name search (`ilike`, not leakproof) off the
-- trigram index, reading every product: 70 ms among 90,000 products against 5.7 ms (bench/scale.ts).
-- Not a security barrier, for the same reason; a data API filter is an operator on a column and a
-- value, which cannot show a hidden row's value.
create or replace view public.product_rankings with (security_invoker = false) as
select
  p.id,
  p.name,
  p.brand_id,
  b.name as brand_name,
  b.slug as brand_slug,
  p.category,
  p.strain_type,
  p.thc_min,
  p.thc_max,
  p.cbd_min,
  p.cbd_max,
  p.image_url,
  p.description,
  p.is_sample,
  p.created_at,
  t.gas,
  t.pass,
  t.counted,
  t.pending,
  t.held,
  case when t.counted > 0 then t.gas::double precision / t.counted end as gas_share,
  t.wilson,
  t.trend as trend_key,
  public.votes_trending_score(t.trend) as trending_score,
  t.last_vote_at
from public.products p
join public.product_tallies t on t.product_id = p.id
left join public.brands b on b.id = p.brand_id
where p.archived_at is null;

comment on view public.product_rankings is
  'Pass or Gas: live products with their tallies, Wilson lower bound (Top) and Trending score.';

-- The published constants, for the "How rankings work" page and anyone recomputing.
create or replace function public.votes_ranking_constants() returns jsonb
language sql stable security definer set search_path = ''
as $$
  select jsonb_build_object(
    'wilson_z', 1.959964,
    'trending_half_life_hours', 48,
    'trending_epoch', '2026-01-01T00:00:00Z',
    'min_account_age_hours', extract(epoch from s.min_account_age) / 3600,
    'ring_detection', s.ring_detection,
    'ring_size', r.ring_size,
    'ring_window_minutes', extract(epoch from r.ring_window) / 60,
    'ring_account_span_hours', extract(epoch from r.ring_account_span) / 3600,
    'signal_retention_days', 30)
  from private.votes_settings s, private.votes_ring_rule() r
  where s.id
$$;

revoke insert, update, delete, truncate, references, trigger on table public.product_rankings
  from anon, authenticated, service_role;

-- The name search (decision 256). `name ilike '%word%'` on the view is planned from the column's
-- statistics, and a rare word priced as common made PostgreSQL walk a sort order's whole index looking
-- for a page of matches (3.3–4.2 s among 500,000 products; migration 20261128800008 narrowed, did not
-- remove, that). Here the plan does not rest on that estimate:
-- 1. the matches (name and filters) are counted through the indexes, bitmap scans only, up to a cap;
-- 2. no more than the cap: those products are sorted, at most `cap` rows;
-- 3. more: matches are at least cap in the catalogue's n, so walking the order's index (sorts and
--    bitmap scans off) meets a page's `max_rows` within about max_rows × n / cap products.
-- The cap is √(max_rows × n), at least 500, so both branches read about that many rows
-- (count_first.sql). Owner's rights, like the view (decision 248): step 1 reads live products with the
-- view's rule, which the trigram index serves only without products' policy; it returns only the
-- view's rows. A search with no run of three letters or digits has no trigram to count through; it is
-- counted through the names' short runs and marks (decisions 261, 265). Rows come in the page's order:
-- Top `wilson desc, counted desc, id`, Trending `trend_key desc, id`, New `created_at desc, id`.
create or replace function public.search_products(
  q text,
  sort text default 'top',
  category text default null,
  brand_slug text default null,
  strain_type text default null,
  max_rows integer default 25
)
returns setof public.product_rankings
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_q text := btrim(coalesce(q, ''));
  v_pattern text;
  v_match text;
  v_live text := 'p.archived_at is null';
  v_where text;
  v_order text;
  v_cap integer;
  v_ids text[];
  v_filters text := 'true';
begin
  if v_q = '' then
    raise exception using errcode = '22023', message = 'Type a name to search for.';
  end if;
  if char_length(v_q) > 100 then
    raise exception using errcode = '22023', message = 'Search for at most 100 characters.';
  end if;
  v_order := case sort
    when 'top' then 'r.wilson desc, r.counted desc, r.id'
    when 'trending' then 'r.trend_key desc, r.id'
    when 'new' then 'r.created_at desc, r.id'
  end;
  if v_order is null then
    raise exception using errcode = '22023', message = 'Sort by top, trending or new.';
  end if;
  if max_rows is null or max_rows < 1 or max_rows > 10000 then
    raise exception using errcode = '22023', message = 'Ask for 1 to 10000 products.';
  end if;

  -- The filters as literals (format %L): each statement is planned for its own values. The user's
  -- % _ and \ match themselves, as web/src/features/pass-or-gas/api/get-products.ts's pattern did.
  -- v_match and v_live are on products (the view's rule, with the owner's rights: the trigram index
  -- serves `ilike` only without products' policy, decision 248); v_where is the same on the view.
  v_pattern := private.contains_pattern(v_q);
  v_match := format('p.name ilike %L', v_pattern);
  if category is not null then
    v_live := v_live || format(' and p.category = %L', category);
    v_filters := v_filters || format(' and r.category = %L', category);
  end if;
  if brand_slug is not null then
    v_match := v_match || format(' and p.brand_id in (select b.id from public.brands b where b.slug = %L)', brand_slug);
    v_filters := v_filters || format(' and r.brand_slug = %L', brand_slug);
  end if;
  if strain_type is not null then
    v_live := v_live || format(' and p.strain_type = %L', strain_type);
    v_filters := v_filters || format(' and r.strain_type = %L', strain_type);
  end if;
  v_where := format('r.name ilike %L and ', v_pattern) || v_filters;

  if v_q !~ '[[:alnum:]]{3}' then
    -- No trigram to count through: the search's runs of one or two letters or digits, and its other
    -- characters ("#", "%", "&"), are counted through the names' runs and marks instead
    -- (products_name_grams_idx, decision 261; products_name_marks_idx, decision 265), every one of
    -- them a name's. Every character but a space is one or the other, and v_q is not empty.
    v_match := private.name_runs_condition('p.name', v_q) || ' and ' || v_match;
  end if;
  -- Where its words meet, if they do (products_name_meetings_idx, decision 270): words counted
  -- through keys few names share, not only through trigrams many share.
  v_match := concat_ws(' and ', private.name_meetings_condition('p.name', v_q), v_match);

  -- First walk ten pages' worth of the order (at most the cap) and keep the matches: a common word,
  -- spread through the order, fills its page there at the cost of the view's own filter, whatever the
  -- catalogue's size (decision 263). Otherwise count through the trigram index — or the names' runs,
  -- above — (and the brand's), up to the cap; sort the few, read by id, or walk the order's index for a
  -- page of the many (count_first.sql). The name and the brand alone lead the count (offset 0 keeps the
  -- others out): with `archived_at is null` among them, an index whose own condition it is (the
  -- category's) could offer every live product as the candidates.
  v_cap := private.count_first_cap('public.products', max_rows);
  v_ids := private.walk_then_count_page(
    format('select r.id from (select r.* from public.product_rankings r where %s order by %s limit %s) r
      where r.name ilike %L order by %s limit %s',
      v_filters, v_order, least(10 * max_rows, v_cap), v_pattern, v_order, max_rows),
    max_rows,
    format('select p.id from (select p.id, p.archived_at, p.category, p.strain_type from public.products p
      where %s offset 0) p where %s limit %s', v_match, v_live, v_cap + 1),
    format('select r.id from public.product_rankings r where r.id = any(%%L::text[]) order by %s limit %s',
      v_order, max_rows),
    format('select r.id from public.product_rankings r where %s order by %s limit %s', v_where, v_order, max_rows),
    v_cap);
  -- The page's rows, in the order found.
  return query
    select r.* from unnest(v_ids) with ordinality as m (id, n)
    join public.product_rankings r on r.id = m.id
    order by m.n;
end
$$;

comment on function public.search_products(text, text, text, text, text, integer) is
  'Pass or Gas: live products whose name contains q, with the list''s filters, in its order (decision 256).';
