-- Rankings (product §pass-or-gas, decision 115). One view lists the live catalogue with every number
-- that places a product: the tallies, the Wilson lower bound (Top) and the Trending score, so anyone
-- can recompute a position from public data. Sort keys: Top `wilson desc, counted desc, id`;
-- Trending `trend_key desc, id` (trend_key orders exactly as trending_score does); New `created_at desc, id`.

-- The Trending score now: Σ ±2^(−age / 48 h) over counted votes (Gas +, Pass −).
create or replace function public.votes_trending_score(trend double precision, at timestamptz default now())
returns double precision
language sql stable parallel safe set search_path = ''
as $$
  select trend / private.votes_trend_weight(at)
$$;

create or replace view public.product_rankings with (security_invoker = true) as
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
