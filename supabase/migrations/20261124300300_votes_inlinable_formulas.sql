-- The ranking formulas as SQL functions PostgreSQL can inline (decision 156): without `set
-- search_path` and without a subquery, the planner substitutes their expressions instead of calling
-- a function per tally update (Wilson, in the generated column) and per vote (the Trending weight).
-- Only pg_catalog functions and operators appear in them (pg_catalog is searched first whatever the
-- search_path), and the values are unchanged (the SQL tests check both against hand-computed ones).

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

-- One counted vote's weight in `trend`: 2^((t − epoch) / half-life), epoch 2026-01-01 UTC, half-life
-- 48 hours (decision 115).
create or replace function private.votes_trend_weight(at timestamptz) returns double precision
language sql immutable parallel safe
as $$
  select pg_catalog.power(2::double precision,
    extract(epoch from at - timestamptz '2026-01-01 00:00:00+00')::double precision / (48 * 3600))
$$;
