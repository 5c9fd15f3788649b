-- Market index (issue 20, product §market-index, decisions 127–130): two indices computed in the
-- database from their raw inputs, every value with its source and as-of, revisions kept.
--   market_indices           the published indices (methodology Markdown, base date and value, unit)
--   index_points             the computed values (one current row per index and date, with revision)
--   index_point_revisions    every value a point had before a recomputation changed it
--   flower_price_observations regulator price points (supabase/data/flower-prices.csv), own unit and statistic
--   market_securities        the equity universe (supabase/data/equity-universe.csv)
--   market_constituents      which securities an equity index holds, with effective dates
--   market_closes            daily closes (revision numbered) and market_close_revisions, their history
-- Everyone reads; only admins (through the RPCs of supabase/definitions/market_*.sql) and the server
-- write. The maths lives in supabase/definitions/market_compute.sql.

create table if not exists public.market_indices (
  slug text primary key constraint market_indices_slug_format check (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
  kind text not null constraint market_indices_kind_check check (kind in ('equity', 'flower')),
  name text not null constraint market_indices_name_length check (private.trimmed_length(name) between 1 and 120),
  description text not null constraint market_indices_description_length check (char_length(description) <= 1000),
  -- Markdown, written by the project (never by a member); the page renders it sanitised.
  methodology text not null constraint market_indices_methodology_length check (char_length(methodology) <= 50000),
  base_date date,
  base_value numeric(20, 6) not null default 100,
  unit text not null default 'points' constraint market_indices_unit_length check (char_length(unit) <= 40),
  currency text constraint market_indices_currency_format check (currency is null or currency ~ '^[A-Z]{3}$'),
  sort_order integer not null default 0,
  updated_at timestamptz not null default now()
);

create table if not exists public.index_points (
  index_slug text not null references public.market_indices (slug) on delete cascade,
  date date not null,
  value numeric(20, 6) not null,
  -- What the value was computed from, in words a reader can follow (e.g. the states observed).
  source text not null constraint index_points_source_length check (char_length(source) between 1 and 2000),
  as_of timestamptz not null default now(),
  revision integer not null default 1 constraint index_points_revision_positive check (revision >= 1),
  -- true when an input was carried from an earlier date (a missing close, a quarter without observation)
  carried boolean not null default false,
  detail text constraint index_points_detail_length check (detail is null or char_length(detail) <= 2000),
  is_sample boolean not null default false,
  primary key (index_slug, date)
);

create table if not exists public.index_point_revisions (
  index_slug text not null references public.market_indices (slug) on delete cascade,
  date date not null,
  revision integer not null,
  value numeric(20, 6) not null,
  source text not null,
  as_of timestamptz not null,
  carried boolean not null,
  replaced_at timestamptz not null default now(),
  primary key (index_slug, date, revision)
);

create table if not exists public.flower_price_observations (
  id bigint generated always as identity primary key,
  state text not null constraint flower_price_observations_state_format check (state ~ '^[A-Z]{2}$'),
  series text not null constraint flower_price_observations_series_length check (private.trimmed_length(series) between 1 and 200),
  -- The first day of the period reported (a month, or the date the Colorado rate takes effect).
  period date not null,
  unit text not null constraint flower_price_observations_unit_check check (unit in ('USD/lb', 'USD/oz', 'USD/g')),
  value numeric(14, 4) not null constraint flower_price_observations_value_positive check (value > 0),
  statistic text not null constraint flower_price_observations_statistic_length check (private.trimmed_length(statistic) between 1 and 100),
  source text not null constraint flower_price_observations_source_length check (private.trimmed_length(source) between 1 and 500),
  note text constraint flower_price_observations_note_length check (note is null or char_length(note) <= 1000),
  -- The same price in USD per gram, for display next to the state's own unit (product §market-index).
  usd_per_gram numeric(14, 4) generated always as (
    round(value / case unit when 'USD/lb' then 453.59237 when 'USD/oz' then 28.349523125 else 1 end, 4)
  ) stored,
  revision integer not null default 1,
  as_of timestamptz not null default now(),
  constraint flower_price_observations_key unique (state, series, period)
);

create table if not exists public.market_securities (
  ticker text primary key constraint market_securities_ticker_format check (ticker ~ '^[A-Z][A-Z0-9.]{0,11}$'),
  company text not null constraint market_securities_company_length check (private.trimmed_length(company) between 1 and 200),
  venue text not null constraint market_securities_venue_length check (char_length(venue) between 1 and 40),
  currency text not null default 'USD' constraint market_securities_currency_format check (currency ~ '^[A-Z]{3}$'),
  note text constraint market_securities_note_length check (note is null or char_length(note) <= 500)
);

create table if not exists public.market_constituents (
  id bigint generated always as identity primary key,
  index_slug text not null references public.market_indices (slug) on delete cascade,
  ticker text not null references public.market_securities (ticker),
  effective_from date not null,
  -- exclusive: the security is a constituent on days d with effective_from <= d < effective_to
  effective_to date,
  constraint market_constituents_range check (effective_to is null or effective_to > effective_from)
);
create index if not exists market_constituents_index_idx on public.market_constituents (index_slug, ticker);
create index if not exists market_constituents_ticker_idx on public.market_constituents (ticker);

create table if not exists public.market_closes (
  ticker text not null references public.market_securities (ticker),
  date date not null,
  close numeric(14, 4) not null constraint market_closes_close_positive check (close > 0),
  currency text not null default 'USD',
  source text not null constraint market_closes_source_length check (char_length(source) between 1 and 500),
  as_of timestamptz not null default now(),
  revision integer not null default 1,
  is_sample boolean not null default false,
  primary key (ticker, date)
);
create index if not exists market_closes_date_idx on public.market_closes (date);
create index if not exists market_closes_is_sample_idx on public.market_closes (is_sample) where is_sample;

create table if not exists public.market_close_revisions (
  ticker text not null,
  date date not null,
  revision integer not null,
  close numeric(14, 4) not null,
  source text not null,
  as_of timestamptz not null,
  replaced_at timestamptz not null default now(),
  primary key (ticker, date, revision)
);

-- Everyone reads every market table; nothing is written through the API directly except an admin's
-- constituent change (policies in market_policies.sql). Imports go through the admin RPCs.
do $$
declare t text;
begin
  foreach t in array array['market_indices', 'index_points', 'index_point_revisions', 'flower_price_observations',
                           'market_securities', 'market_constituents', 'market_closes', 'market_close_revisions']
  loop
    execute format('alter table public.%I enable row level security', t);
    execute format('revoke all on table public.%I from anon, authenticated', t);
    execute format('grant select on table public.%I to anon, authenticated', t);
    execute format('grant all on table public.%I to service_role', t);
  end loop;
end
$$;
grant insert (index_slug, ticker, effective_from, effective_to), update (effective_from, effective_to), delete
  on table public.market_constituents to authenticated;

-- The two indices (methodology text: supabase/definitions/market_catalogue.sql).
insert into public.market_indices (slug, kind, name, description, methodology, base_date, base_value, unit, currency, sort_order)
values
  ('cannabis-equity', 'equity', 'HighGrade Cannabis Equity Index',
   'Equal-weighted index of publicly listed cannabis companies, base 100, rebalanced quarterly.',
   '', null, 100, 'points', 'USD', 1),
  ('flower-price', 'flower', 'HighGrade Flower Price Index',
   'Quarterly composite of state regulators'' published flower prices, each state relative to its own first observation, base 100.',
   '', '2018-10-01', 100, 'points', null, 2)
on conflict (slug) do nothing;

-- supabase/data/flower-prices.csv (regulator price points as reported by the named publication).
insert into public.flower_price_observations (state, series, period, unit, value, statistic, source, note) values
  ('CO', 'retail flower average market rate (wholesale)', '2018-10-01', 'USD/lb', 759, 'median (AMR)', 'mjbizdaily.com/wholesale-cannabis-bud-prices-rise-significantly-in-colorado', 'AMR takes effect on the date; computed from METRC transfers over three months ending a month before'),
  ('CO', 'retail flower average market rate (wholesale)', '2019-01-01', 'USD/lb', 781, 'median (AMR)', 'Colorado Department of Revenue release 2018-12-20', null),
  ('CO', 'retail flower average market rate (wholesale)', '2019-04-01', 'USD/lb', 806, 'median (AMR)', 'Colorado Department of Revenue release 2019-03-21', null),
  ('CO', 'retail flower average market rate (wholesale)', '2019-07-01', 'USD/lb', 850, 'median (AMR)', 'denver.cbslocal.com 2019-09-17', null),
  ('CO', 'retail flower average market rate (wholesale)', '2019-10-01', 'USD/lb', 999, 'median (AMR)', 'denver.cbslocal.com 2019-09-17', null),
  ('CO', 'retail flower average market rate (wholesale)', '2020-04-01', 'USD/lb', 1164, 'median (AMR)', 'Colorado Department of Revenue release 2020-03-24', null),
  ('CO', 'retail flower average market rate (wholesale)', '2020-07-01', 'USD/lb', 1000, 'median (AMR)', 'Colorado Department of Revenue release 2020-06-22 (via mjshareholders.com)', null),
  ('CO', 'retail flower average market rate (wholesale)', '2020-10-01', 'USD/lb', 1316, 'median (AMR)', 'Colorado Department of Revenue release 2020-09-21', null),
  ('CO', 'retail flower average market rate (wholesale)', '2021-01-01', 'USD/lb', 1721, 'median (AMR)', 'marijuanaventure.com; mjbizdaily.com 2022-07-22', 'one outlet (KDVR) reported 1731'),
  ('CO', 'retail flower average market rate (wholesale)', '2021-04-01', 'USD/lb', 1308, 'median (AMR)', 'westword.com 2021-06-30', null),
  ('CO', 'retail flower average market rate (wholesale)', '2021-07-01', 'USD/lb', 1309, 'median (AMR)', 'westword.com 2021-06-30; mjbizdaily.com 2022-07-22', null),
  ('CO', 'retail flower average market rate (wholesale)', '2021-10-01', 'USD/lb', 1316, 'median (AMR)', 'Westword late 2021 (via mmjdaily.com)', null),
  ('CO', 'retail flower average market rate (wholesale)', '2022-01-01', 'USD/lb', 948, 'median (AMR)', 'Westword late 2021 (via mmjdaily.com)', null),
  ('CO', 'retail flower average market rate (wholesale)', '2022-07-01', 'USD/lb', 709, 'median (AMR)', 'Colorado Department of Revenue release 2022-06-16', null),
  ('CO', 'retail flower average market rate (wholesale)', '2022-10-01', 'USD/lb', 658, 'median (AMR)', 'Colorado Department of Revenue page snapshot (via 94kix.com)', null),
  ('CO', 'retail flower average market rate (wholesale)', '2023-01-01', 'USD/lb', 658, 'median (AMR)', 'Colorado Department of Revenue release 2022-12-15', null),
  ('CO', 'retail flower average market rate (wholesale)', '2023-04-01', 'USD/lb', 649, 'median (AMR)', 'Colorado Department of Revenue release 2023-03-16', null),
  ('CO', 'retail flower average market rate (wholesale)', '2023-07-01', 'USD/lb', 703, 'median (AMR)', 'krdo.com 2023-06-19', null),
  ('CO', 'retail flower average market rate (wholesale)', '2023-10-01', 'USD/lb', 750, 'median (AMR)', 'Westword (via ohdispensaries.com)', null),
  ('CO', 'retail flower average market rate (wholesale)', '2024-10-01', 'USD/lb', 658, 'median (AMR)', 'westword.com 2024-10-01', null),
  ('CO', 'retail flower average market rate (wholesale)', '2025-10-01', 'USD/lb', 649, 'median (AMR)', 'westword.com (released 2025-09-10)', null),
  ('CO', 'retail flower average market rate (wholesale)', '2026-01-01', 'USD/lb', 648, 'median (AMR)', 'westword.com (record low; end of 2025)', null),
  ('OR', 'retail usable marijuana price', '2022-11-01', 'USD/g', 4.08, 'median', 'cannabisbenchmarks.com 2023-12-12 (OLCC data)', null),
  ('OR', 'retail usable marijuana price', '2023-11-01', 'USD/g', 3.82, 'median', 'cannabisbenchmarks.com 2023-12-12 (OLCC data)', null),
  ('OR', 'retail usable marijuana price', '2024-07-01', 'USD/g', 3.78, 'average', 'themarijuanaherald.com 2024-09 (OLCC data)', null),
  ('OR', 'retail usable marijuana price', '2024-08-01', 'USD/g', 3.75, 'average', 'themarijuanaherald.com 2024-09 (OLCC data)', null),
  ('OR', 'retail usable marijuana price', '2024-09-01', 'USD/g', 3.75, 'average', 'themarijuanaherald.com 2024-10 (OLCC data)', null),
  ('OR', 'retail usable marijuana price', '2024-11-01', 'USD/g', 3.57, 'average', 'themarijuanaherald.com (OLCC data; all-time low)', null),
  ('OR', 'retail usable marijuana price', '2025-12-01', 'USD/g', 3.33, 'median', 'KLCC (via mmjdaily.com) (OLCC data)', null),
  ('MI', 'adult-use retail flower price', '2020-01-01', 'USD/oz', 512.05, 'average', 'cannabisnewsworld.com 2022-09-23 (CRA data)', null),
  ('MI', 'adult-use retail flower price', '2021-01-01', 'USD/oz', 323.68, 'average', 'cannabisnewsworld.com 2022-09-23 (CRA data)', null),
  ('MI', 'adult-use retail flower price', '2022-06-01', 'USD/oz', 122.43, 'average', 'cannabisnewsworld.com 2022-09-23 (CRA data)', null),
  ('MI', 'adult-use retail flower price', '2022-11-01', 'USD/oz', 95.12, 'average', 'michigannewssource.com (CRA data)', null),
  ('MI', 'adult-use retail flower price', '2023-01-01', 'USD/oz', 80.16, 'average', 'michigannewssource.com (CRA data)', null),
  ('MI', 'adult-use retail flower price', '2024-07-01', 'USD/oz', 79.70, 'average', 'marijuanaretailreport.com (CRA data; record low)', null),
  ('MI', 'adult-use retail flower price', '2024-10-01', 'USD/oz', 73.99, 'average', 'thcmarijuananews.com 2024-11 (CRA data)', null),
  ('MA', 'retail dried flower price', '2018-11-01', 'USD/g', 14.08, 'average', 'themarijuanaherald.com 2023-06 (CCC data)', null),
  ('MA', 'retail dried flower price', '2020-01-01', 'USD/g', 14.68, 'average', 'themarijuanaherald.com 2023-06 (CCC data; peak)', null),
  ('MA', 'retail dried flower price', '2020-02-01', 'USD/g', 14.57, 'average', 'themarijuanaherald.com 2025-03 (CCC data)', null),
  ('MA', 'retail dried flower price', '2022-09-01', 'USD/g', 9.17, 'average', 'cannabisbusinessexecutive.com 2022-12 (CCC data)', null),
  ('MA', 'retail dried flower price', '2022-10-01', 'USD/g', 7.76, 'average', 'cannabisbusinessexecutive.com 2022-12 (CCC data)', null),
  ('MA', 'retail dried flower price', '2022-11-01', 'USD/g', 8.04, 'average', 'cannabisbusinessexecutive.com 2022-12 (CCC data)', null),
  ('MA', 'retail dried flower price', '2023-01-01', 'USD/g', 6.15, 'average', 'themarijuanaherald.com 2023-06 (CCC data)', null),
  ('MA', 'retail dried flower price', '2023-03-01', 'USD/g', 6.63, 'average', 'themarijuanaherald.com 2023-06 (CCC data)', null),
  ('MA', 'retail dried flower price', '2023-04-01', 'USD/g', 6.05, 'average', 'themarijuanaherald.com 2023-06 (CCC data)', null),
  ('MA', 'retail dried flower price', '2024-06-01', 'USD/g', 5.06, 'average', 'themarijuanaherald.com (CCC data)', null),
  ('MA', 'retail dried flower price', '2025-02-01', 'USD/g', 4.40, 'average', 'themarijuanaherald.com 2025-03 (CCC data)', null),
  ('IL', 'adult-use flower price', '2023-09-01', 'USD/g', 9.78, 'average', 'themarijuanaherald.com 2023-10 (IDFPR data; all-time low)', null)
on conflict (state, series, period) do nothing;

-- supabase/data/equity-universe.csv: the universe, every security a constituent from the start.
insert into public.market_securities (ticker, company, venue, note) values
  ('CURLF', 'Curaleaf', 'OTC', 'also CURA on the CSE'),
  ('GTBIF', 'Green Thumb Industries', 'OTCQX', null),
  ('TCNNF', 'Trulieve', 'OTCQX', null),
  ('VRNOF', 'Verano', 'OTCQX', null),
  ('CRLBF', 'Cresco Labs', 'OTCQX', null),
  ('AYRWF', 'Ayr Wellness', 'OTCQX', null),
  ('JUSHF', 'Jushi', 'OTCQX', null),
  ('TSNDF', 'TerrAscend', 'OTC', 'TSX-listed since 2023-07'),
  ('GLASF', 'Glass House Brands', 'OTC', null),
  ('PLNHF', 'Planet 13', 'OTC', null),
  ('AAWH', 'Ascend Wellness', 'OTC', null),
  ('IIPR', 'Innovative Industrial Properties', 'NYSE', 'cannabis real-estate REIT'),
  ('TLRY', 'Tilray Brands', 'Nasdaq', null),
  ('CGC', 'Canopy Growth', 'Nasdaq', null),
  ('ACB', 'Aurora Cannabis', 'Nasdaq', null),
  ('CRON', 'Cronos Group', 'Nasdaq', null),
  ('SNDL', 'SNDL', 'Nasdaq', null),
  ('OGI', 'OrganiGram', 'Nasdaq', null),
  ('VFF', 'Village Farms', 'Nasdaq', null),
  ('HITI', 'High Tide', 'Nasdaq', null)
on conflict (ticker) do nothing;
insert into public.market_constituents (index_slug, ticker, effective_from)
select 'cannabis-equity', s.ticker, date '2000-01-01' from public.market_securities s
where not exists (select 1 from public.market_constituents m where m.index_slug = 'cannabis-equity');
