-- Brand directory (product §brand-directory, decisions 119–121): the brands table Pass or Gas created
-- gains its directory columns (identity, locations, categories, links, one licence and its
-- verification, archive and merge), the brands' community tallies, the representatives' claims, and
-- the link from scam reports to a brand. Tables, columns and indexes only: functions, triggers and
-- policies live in supabase/definitions/brands_*.sql.

create extension if not exists pg_trgm with schema extensions;

-- The product categories a brand may list (the same list as public.products.category).
create or replace function private.brands_are_categories(value text[]) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(array_ndims(value), 1) = 1
    and coalesce(cardinality(value), 0) <= 8
    and not exists (
      select 1 from unnest(value) as u(c)
      where c is null or c not in
        ('Flower', 'Concentrates', 'Edibles', 'Vape Cartridges', 'Topicals', 'Accessories', 'Seeds', 'Other')
    )
$$;

-- Two-letter US state or territory codes, at most 60.
create or replace function private.brands_are_states(value text[]) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(array_ndims(value), 1) = 1
    and coalesce(cardinality(value), 0) <= 60
    and not exists (select 1 from unnest(value) as u(s) where s is null or s !~ '^[A-Z]{2}$')
$$;

-- A logo is an https address (mixed content would not load on the site), at most 2048 characters.
create or replace function private.brands_is_https_url(value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select char_length(value) <= 2048 and value ~* '^https://[^[:space:]/?#<>"]+[^[:space:]<>"]*$'
$$;

-- At most 10 social links, each an http(s) address without markup characters.
create or replace function private.brands_are_links(value text[]) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(array_ndims(value), 1) = 1
    and coalesce(cardinality(value), 0) <= 10
    and not exists (
      select 1 from unnest(value) as u(url)
      where url is null or not private.is_http_url(url) or url ~ '[<>"]' or private.has_script_markup(url)
    )
$$;

-- Used by the column checks below, so callable by everyone who writes the table.
grant execute on function private.brands_are_categories(text[]), private.brands_are_states(text[]),
  private.brands_is_https_url(text), private.brands_are_links(text[])
  to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- brands: the directory's columns. `verified` (Pass or Gas) stays and mirrors verification = 'verified'.
-- ---------------------------------------------------------------------------------------------------
alter table public.brands add column if not exists description text not null default '';
alter table public.brands add column if not exists logo_url text;
alter table public.brands add column if not exists website text;
alter table public.brands add column if not exists social_links text[] not null default '{}';
alter table public.brands add column if not exists states text[] not null default '{}';
alter table public.brands add column if not exists city text;
alter table public.brands add column if not exists categories text[] not null default '{}';
alter table public.brands add column if not exists licence_number text;
alter table public.brands add column if not exists licence_state text;
alter table public.brands add column if not exists licence_type text;
alter table public.brands add column if not exists licence_expires_on date;
alter table public.brands add column if not exists verification text not null default 'unverified';
alter table public.brands add column if not exists verified_at timestamptz;
-- The verifying admin's account id (no foreign key: the record outlives the account; the audit log
-- keeps the full history).
alter table public.brands add column if not exists verified_by uuid;
alter table public.brands add column if not exists verification_note text;
alter table public.brands add column if not exists archived_at timestamptz;
alter table public.brands add column if not exists merged_into uuid references public.brands (id) on delete set null;

alter table public.brands drop constraint if exists brands_description_length;
alter table public.brands add constraint brands_description_length check (char_length(description) <= 4000);
alter table public.brands drop constraint if exists brands_description_markup;
alter table public.brands add constraint brands_description_markup check (not private.has_script_markup(description));
alter table public.brands drop constraint if exists brands_logo_url_format;
alter table public.brands add constraint brands_logo_url_format
  check (logo_url is null or private.brands_is_https_url(logo_url));
alter table public.brands drop constraint if exists brands_website_format;
alter table public.brands add constraint brands_website_format
  check (website is null or (private.is_http_url(website) and website !~ '[<>"]' and not private.has_script_markup(website)));
alter table public.brands drop constraint if exists brands_social_links_format;
alter table public.brands add constraint brands_social_links_format check (private.brands_are_links(social_links));
alter table public.brands drop constraint if exists brands_states_format;
alter table public.brands add constraint brands_states_format check (private.brands_are_states(states));
alter table public.brands drop constraint if exists brands_city_format;
alter table public.brands add constraint brands_city_format
  check (city is null or (private.trimmed_length(city) between 1 and 120 and not private.has_html(city)));
alter table public.brands drop constraint if exists brands_categories_format;
alter table public.brands add constraint brands_categories_format check (private.brands_are_categories(categories));
alter table public.brands drop constraint if exists brands_licence_number_format;
alter table public.brands add constraint brands_licence_number_format
  check (licence_number is null or licence_number ~ '^[A-Za-z0-9][A-Za-z0-9 ./#-]{0,63}$');
alter table public.brands drop constraint if exists brands_licence_state_format;
alter table public.brands add constraint brands_licence_state_format
  check (licence_state is null or licence_state ~ '^[A-Z]{2}$');
alter table public.brands drop constraint if exists brands_licence_type_format;
alter table public.brands add constraint brands_licence_type_format
  check (licence_type is null or (private.trimmed_length(licence_type) between 1 and 100 and not private.has_html(licence_type)));
alter table public.brands drop constraint if exists brands_verification_check;
alter table public.brands add constraint brands_verification_check
  check (verification in ('unverified', 'verified', 'expired'));
alter table public.brands drop constraint if exists brands_verification_note_format;
alter table public.brands add constraint brands_verification_note_format
  check (verification_note is null or (char_length(verification_note) <= 2000 and not private.has_script_markup(verification_note)));
-- A verified licence names its number, state, date and evidence (decision 120).
alter table public.brands drop constraint if exists brands_verified_complete;
alter table public.brands add constraint brands_verified_complete
  check (verification <> 'verified' or (licence_number is not null and licence_state is not null
    and verified_at is not null and private.trimmed_length(coalesce(verification_note, '')) >= 3));
alter table public.brands drop constraint if exists brands_merged_into_other;
alter table public.brands add constraint brands_merged_into_other check (merged_into is null or merged_into <> id);

-- Typo-tolerant name search (trigram similarity and substring) and the directory's filters and sorts.
create index if not exists brands_name_trgm_idx on public.brands using gin (name extensions.gin_trgm_ops);
create index if not exists brands_live_name_idx on public.brands (lower(name), id) where archived_at is null;
create index if not exists brands_live_created_at_idx on public.brands (created_at desc, id) where archived_at is null;
create index if not exists brands_states_idx on public.brands using gin (states);
create index if not exists brands_categories_idx on public.brands using gin (categories);
create index if not exists brands_merged_into_idx on public.brands (merged_into) where merged_into is not null;

-- ---------------------------------------------------------------------------------------------------
-- brand_tallies: each brand's live products and their counted Gas and Pass votes, kept by triggers on
-- products and product_tallies (so the brands row, which is audited, is not written on every vote).
-- ---------------------------------------------------------------------------------------------------
create table if not exists public.brand_tallies (
  brand_id uuid primary key references public.brands (id) on delete cascade,
  products integer not null default 0 constraint brand_tallies_products_range check (products >= 0),
  gas integer not null default 0 constraint brand_tallies_gas_range check (gas >= 0),
  pass integer not null default 0 constraint brand_tallies_pass_range check (pass >= 0),
  updated_at timestamptz not null default now(),
  counted integer generated always as (gas + pass) stored,
  wilson double precision generated always as (private.votes_wilson(gas, pass)) stored
);
create index if not exists brand_tallies_score_idx on public.brand_tallies (wilson desc, counted desc, brand_id);
alter table public.brand_tallies enable row level security;

insert into public.brand_tallies (brand_id, products, gas, pass)
select b.id,
  count(p.id) filter (where p.archived_at is null),
  coalesce(sum(t.gas) filter (where p.archived_at is null), 0),
  coalesce(sum(t.pass) filter (where p.archived_at is null), 0)
from public.brands b
left join public.products p on p.brand_id = b.id
left join public.product_tallies t on t.product_id = p.id
group by b.id
on conflict (brand_id) do nothing;

-- The trust page's Top rank subtracts archived products (few) from a count on the tallies' index.
create index if not exists products_archived_idx on public.products (id) where archived_at is not null;

-- ---------------------------------------------------------------------------------------------------
-- brand_claims: a member asks to represent a brand; an admin approves or rejects. An approved claim
-- makes its member a representative who may edit the brand's description, logo and links.
-- ---------------------------------------------------------------------------------------------------
create table if not exists public.brand_claims (
  id uuid primary key default gen_random_uuid(),
  brand_id uuid not null references public.brands (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  role_title text not null
    constraint brand_claims_role_title_length check (private.trimmed_length(role_title) between 2 and 100)
    constraint brand_claims_role_title_markup check (not private.has_html(role_title)),
  message text not null default ''
    constraint brand_claims_message_length check (char_length(message) <= 2000)
    constraint brand_claims_message_markup check (not private.has_script_markup(message)),
  status text not null default 'pending'
    constraint brand_claims_status_check check (status in ('pending', 'approved', 'rejected', 'revoked')),
  decided_by uuid, -- the deciding admin (no foreign key, like brands.verified_by)
  decided_at timestamptz,
  decision_note text
    constraint brand_claims_decision_note_format
    check (decision_note is null or (char_length(decision_note) <= 2000 and not private.has_script_markup(decision_note))),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- One open (pending or approved) claim per member and brand.
create unique index if not exists brand_claims_open_key on public.brand_claims (brand_id, user_id)
  where status in ('pending', 'approved');
create index if not exists brand_claims_user_id_idx on public.brand_claims (user_id, created_at desc);
create index if not exists brand_claims_pending_idx on public.brand_claims (created_at) where status = 'pending';
alter table public.brand_claims enable row level security;

select private.set_write_quota('public.brand_claims', 5, 20, 1, 'brand claims');

-- ---------------------------------------------------------------------------------------------------
-- Scam reports link to a brand (set by an admin, or by the scammer database's matching).
-- ---------------------------------------------------------------------------------------------------
alter table public.scammer_reports add column if not exists brand_id uuid references public.brands (id) on delete set null;
create index if not exists scammer_reports_brand_id_idx on public.scammer_reports (brand_id, created_at desc)
  where brand_id is not null;

revoke truncate, references, trigger on public.brand_tallies, public.brand_claims from anon, authenticated;
-- The brands' tallies are written only by the triggers (which run as their owner): no API role
-- writes them, the service role included.
revoke insert, update, delete, truncate on table public.brand_tallies from anon, authenticated, service_role;
