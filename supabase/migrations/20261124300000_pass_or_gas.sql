-- Pass or Gas (product §pass-or-gas, decisions 115–118): the product catalogue (with a minimal brands
-- table the brand directory extends later), the vote's counting state, tallies kept by triggers, the
-- ring-detection signals, comment likes and reports, and the moderation queue. Tables, columns and
-- indexes only: the functions, triggers and policies live in supabase/definitions/votes_*.sql.

-- ---------------------------------------------------------------------------------------------------
-- Settings the server writes at start (VOTE_MIN_ACCOUNT_AGE_HOURS, VOTE_RING_DETECTION); an operator
-- may also change them with plain SQL. One row.
-- ---------------------------------------------------------------------------------------------------
create table if not exists private.votes_settings (
  id boolean primary key default true constraint votes_settings_single_row check (id),
  min_account_age interval not null default interval '24 hours'
    constraint votes_settings_min_account_age_range
    check (min_account_age >= interval '0' and min_account_age <= interval '365 days'),
  ring_detection boolean not null default true,
  updated_at timestamptz not null default now()
);
insert into private.votes_settings (id) values (true) on conflict (id) do nothing;
revoke all on table private.votes_settings from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- brands: the minimum products need; the brand directory adds its columns to this table.
-- ---------------------------------------------------------------------------------------------------
create table if not exists public.brands (
  id uuid primary key default gen_random_uuid(),
  name text not null
    constraint brands_name_length check (private.trimmed_length(name) between 1 and 120)
    constraint brands_name_markup check (not private.has_script_markup(name)),
  slug text not null
    constraint brands_slug_format check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 80),
  verified boolean not null default false,
  is_sample boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint brands_slug_key unique (slug)
);
alter table public.brands enable row level security;

-- ---------------------------------------------------------------------------------------------------
-- products: the catalogue members vote on. Ids are text (the votes' and comments' product_id always
-- was), a UUID by default. Archived products leave the lists and take no new votes or comments.
-- ---------------------------------------------------------------------------------------------------
create table if not exists public.products (
  id text primary key default gen_random_uuid()::text
    constraint products_id_format check (private.is_product_id(id)),
  name text not null
    constraint products_name_length check (private.trimmed_length(name) between 1 and 200)
    constraint products_name_markup check (not private.has_script_markup(name)),
  brand_id uuid references public.brands (id) on delete set null,
  category text not null
    constraint products_category_check check (category in
      ('Flower', 'Concentrates', 'Edibles', 'Vape Cartridges', 'Topicals', 'Accessories', 'Seeds', 'Other')),
  strain_type text not null default 'n/a'
    constraint products_strain_type_check check (strain_type in ('indica', 'sativa', 'hybrid', 'n/a')),
  thc_min numeric(5, 2) constraint products_thc_min_range check (thc_min between 0 and 100),
  thc_max numeric(5, 2) constraint products_thc_max_range check (thc_max between 0 and 100),
  cbd_min numeric(5, 2) constraint products_cbd_min_range check (cbd_min between 0 and 100),
  cbd_max numeric(5, 2) constraint products_cbd_max_range check (cbd_max between 0 and 100),
  image_url text constraint products_image_url_format check (image_url is null or private.is_http_url(image_url)),
  description text not null default ''
    constraint products_description_length check (char_length(description) <= 4000)
    constraint products_description_markup check (not private.has_script_markup(description)),
  archived_at timestamptz,
  is_sample boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint products_thc_order check (thc_min is null or thc_max is null or thc_min <= thc_max),
  constraint products_cbd_order check (cbd_min is null or cbd_max is null or cbd_min <= cbd_max)
);
create index if not exists products_live_created_at_idx on public.products (created_at desc, id) where archived_at is null;
create index if not exists products_brand_id_idx on public.products (brand_id);
create index if not exists products_category_idx on public.products (category) where archived_at is null;
create index if not exists products_name_trgm_idx on public.products using gin (name extensions.gin_trgm_ops);
alter table public.products enable row level security;

-- ---------------------------------------------------------------------------------------------------
-- Votes gain their counting state (decision 116): counted, pending (account younger than the
-- threshold until counts_from), held (a suspected ring, until an admin decides) or rejected. Votes
-- cast before this migration keep counting.
-- ---------------------------------------------------------------------------------------------------
alter table public.product_votes add column if not exists status text not null default 'counted';
alter table public.product_votes add column if not exists counts_from timestamptz;
alter table public.product_votes add column if not exists hold_id uuid;
do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'product_votes_status_check') then
    alter table public.product_votes add constraint product_votes_status_check
      check (status in ('counted', 'pending', 'held', 'rejected'));
  end if;
end
$$;
create index if not exists product_votes_pending_idx on public.product_votes (counts_from) where status = 'pending';
create index if not exists product_votes_hold_id_idx on public.product_votes (hold_id) where hold_id is not null;

-- Comments gain an edited marker, a moderation state and a like count (for "top first").
alter table public.product_comments add column if not exists edited_at timestamptz;
alter table public.product_comments add column if not exists hidden_at timestamptz;
alter table public.product_comments add column if not exists likes integer not null default 0;
create index if not exists product_comments_product_id_likes_idx on public.product_comments (product_id, likes desc, created_at desc);

-- ---------------------------------------------------------------------------------------------------
-- Votes and comments must name real products. A fresh install has none; an older one may: each
-- unknown product id becomes an archived placeholder product, so no member's vote or comment is lost.
-- ---------------------------------------------------------------------------------------------------
insert into public.products (id, name, category, archived_at, description)
select x.product_id, 'Product ' || x.product_id, 'Other', now(),
  'Kept for the votes and comments cast before the catalogue existed.'
from (
  select product_id from public.product_votes
  union
  select product_id from public.product_comments
) x
where not exists (select 1 from public.products p where p.id = x.product_id);

do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'product_votes_product_id_fkey') then
    alter table public.product_votes add constraint product_votes_product_id_fkey
      foreign key (product_id) references public.products (id) on delete cascade;
  end if;
  if not exists (select 1 from pg_constraint where conname = 'product_comments_product_id_fkey') then
    alter table public.product_comments add constraint product_comments_product_id_fkey
      foreign key (product_id) references public.products (id) on delete cascade;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------------
-- Tallies (decision 115): one row per product, kept by triggers on product_votes. `trend` is the sum
-- over counted votes of ±2^((t − epoch) / half-life); the Trending score is trend · 2^(−(now − epoch) /
-- half-life), which orders products exactly as `trend` does, so `trend` is what lists sort on.
-- ---------------------------------------------------------------------------------------------------

-- Wilson score lower bound of the Gas share at 95 % confidence (z = 1.959964); 0 without votes.
create or replace function private.votes_wilson(gas integer, pass integer) returns double precision
language sql immutable parallel safe set search_path = ''
as $$
  select case when coalesce(gas, 0) + coalesce(pass, 0) <= 0 then 0::double precision else (
    with v(n, p, z) as (
      select (gas + pass)::double precision, gas::double precision / (gas + pass), 1.959964::double precision
    )
    select greatest(0::double precision,
      (p + z * z / (2 * n) - z * sqrt((p * (1 - p) + z * z / (4 * n)) / n)) / (1 + z * z / n))
    from v
  ) end
$$;

create table if not exists public.product_tallies (
  product_id text primary key references public.products (id) on delete cascade,
  gas integer not null default 0 constraint product_tallies_gas_range check (gas >= 0),
  pass integer not null default 0 constraint product_tallies_pass_range check (pass >= 0),
  pending integer not null default 0 constraint product_tallies_pending_range check (pending >= 0),
  held integer not null default 0 constraint product_tallies_held_range check (held >= 0),
  trend double precision not null default 0,
  last_vote_at timestamptz,
  updated_at timestamptz not null default now(),
  counted integer generated always as (gas + pass) stored,
  wilson double precision generated always as (private.votes_wilson(gas, pass)) stored
);
create index if not exists product_tallies_top_idx on public.product_tallies (wilson desc, counted desc, product_id);
create index if not exists product_tallies_trending_idx on public.product_tallies (trend desc, product_id);
alter table public.product_tallies enable row level security;

-- One counted vote's weight in `trend`: 2^((t − epoch) / half-life), epoch 2026-01-01 UTC, half-life
-- 48 hours (decision 115). Doubles reach 2^1023 in 5.6 years: a later migration moves the epoch
-- (multiplying every trend by the same power of two) well before 2031.
create or replace function private.votes_trend_weight(at timestamptz) returns double precision
language sql immutable parallel safe set search_path = ''
as $$
  select power(2::double precision,
    extract(epoch from at - timestamptz '2026-01-01 00:00:00+00')::double precision / (48 * 3600))
$$;
grant execute on function private.votes_trend_weight(timestamptz) to anon, authenticated, service_role;

insert into public.product_tallies (product_id, gas, pass, pending, held, trend, last_vote_at)
select p.id,
  count(*) filter (where v.status = 'counted' and v.vote_type = 'gas'),
  count(*) filter (where v.status = 'counted' and v.vote_type = 'pass'),
  count(*) filter (where v.status = 'pending'),
  count(*) filter (where v.status = 'held'),
  coalesce(sum(case when v.vote_type = 'gas' then 1 else -1 end * private.votes_trend_weight(v.updated_at))
    filter (where v.status = 'counted'), 0),
  max(v.updated_at)
from public.products p left join public.product_votes v on v.product_id = p.id
group by p.id
on conflict (product_id) do nothing;

-- Votes over time for the product page's chart: counted Gas and Pass by UTC day, kept by the same
-- trigger (a vote is booked on the day it took its current form).
create table if not exists public.product_vote_days (
  product_id text not null references public.products (id) on delete cascade,
  day date not null,
  gas integer not null default 0,
  pass integer not null default 0,
  primary key (product_id, day)
);
alter table public.product_vote_days enable row level security;
insert into public.product_vote_days (product_id, day, gas, pass)
select v.product_id, (v.updated_at at time zone 'UTC')::date,
  count(*) filter (where v.vote_type = 'gas'), count(*) filter (where v.vote_type = 'pass')
from public.product_votes v where v.status = 'counted'
group by 1, 2
on conflict (product_id, day) do nothing;

-- ---------------------------------------------------------------------------------------------------
-- Ring-detection signals (decision 116): per vote, a keyed hash of the client address and the
-- account's creation time; nothing else, deleted after 30 days.
-- ---------------------------------------------------------------------------------------------------
create table if not exists private.votes_signals (
  vote_id uuid primary key references public.product_votes (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  product_id text not null,
  address_hash text not null,
  account_created_at timestamptz not null,
  voted_at timestamptz not null default now()
);
create index if not exists votes_signals_cluster_idx on private.votes_signals (product_id, address_hash, voted_at);
create index if not exists votes_signals_voted_at_idx on private.votes_signals (voted_at);
create index if not exists votes_signals_user_id_idx on private.votes_signals (user_id);
revoke all on table private.votes_signals from public, anon, authenticated, service_role;

-- A hidden comment's text, kept aside while a moderator's "hide" stands: the public row shows a
-- placeholder instead, so the comments table keeps a select policy of `true` (a row-level condition
-- there would stop its search indexes from serving the data API's filters, decision 092).
create table if not exists private.votes_hidden_comments (
  comment_id uuid primary key references public.product_comments (id) on delete cascade,
  content text not null,
  hidden_at timestamptz not null default now()
);
revoke all on table private.votes_hidden_comments from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- Comment likes (for "top first") and reports.
-- ---------------------------------------------------------------------------------------------------
create table if not exists public.product_comment_likes (
  comment_id uuid not null references public.product_comments (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (comment_id, user_id)
);
create index if not exists product_comment_likes_user_id_idx on public.product_comment_likes (user_id);
alter table public.product_comment_likes enable row level security;

create table if not exists public.product_comment_reports (
  id uuid primary key default gen_random_uuid(),
  comment_id uuid not null references public.product_comments (id) on delete cascade,
  reporter_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  reason text not null default ''
    constraint product_comment_reports_reason_length check (char_length(reason) <= 500)
    constraint product_comment_reports_reason_markup check (not private.has_script_markup(reason)),
  created_at timestamptz not null default now(),
  constraint product_comment_reports_comment_id_reporter_id_key unique (comment_id, reporter_id)
);
create index if not exists product_comment_reports_reporter_id_idx on public.product_comment_reports (reporter_id);
alter table public.product_comment_reports enable row level security;

-- ---------------------------------------------------------------------------------------------------
-- The moderation queue admins work in /admin/moderation: reported comments and held votes.
-- ---------------------------------------------------------------------------------------------------
create table if not exists public.moderation_items (
  id uuid primary key default gen_random_uuid(),
  kind text not null constraint moderation_items_kind_check check (kind in ('comment_report', 'held_votes')),
  product_id text not null references public.products (id) on delete cascade,
  comment_id uuid references public.product_comments (id) on delete cascade,
  reports integer not null default 0,
  votes integer not null default 0,
  status text not null default 'open' constraint moderation_items_status_check check (status in ('open', 'resolved')),
  resolution text constraint moderation_items_resolution_check
    check (resolution in ('hidden', 'restored', 'dismissed', 'released', 'rejected')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  resolved_at timestamptz,
  resolved_by uuid references auth.users (id) on delete cascade,
  constraint moderation_items_comment_check check ((kind = 'comment_report') = (comment_id is not null))
);
create unique index if not exists moderation_items_open_comment_idx on public.moderation_items (comment_id)
  where status = 'open';
create index if not exists moderation_items_status_idx on public.moderation_items (status, updated_at desc);
create index if not exists moderation_items_product_id_idx on public.moderation_items (product_id);
create index if not exists moderation_items_resolved_by_idx on public.moderation_items (resolved_by) where resolved_by is not null;
alter table public.moderation_items enable row level security;

do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'product_votes_hold_id_fkey') then
    alter table public.product_votes add constraint product_votes_hold_id_fkey
      foreign key (hold_id) references public.moderation_items (id) on delete set null;
  end if;
end
$$;

-- Live tallies on open pages.
do $$
begin
  if not exists (
    select 1 from pg_publication_tables
    where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'product_tallies'
  ) then
    alter publication supabase_realtime add table public.product_tallies;
  end if;
end
$$;

select private.set_write_quota('public.product_comment_likes', 30, 500, 1, 'likes');
select private.set_write_quota('public.product_comment_reports', 10, 50, 1, 'reports');

-- Tallies, the per-day series and the queue are written only by the triggers and procedures above
-- (which run as their owner): no API role writes them, the service role included.
revoke insert, update, delete, truncate on table public.product_tallies, public.product_vote_days,
  public.moderation_items from anon, authenticated, service_role;
-- As for every table (RLS does not cover these).
revoke truncate, references, trigger on public.brands, public.products, public.product_tallies,
  public.product_vote_days, public.product_comment_likes, public.product_comment_reports,
  public.moderation_items from anon, authenticated;
revoke execute on function private.votes_wilson(integer, integer) from public, anon, authenticated;
