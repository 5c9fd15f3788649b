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
