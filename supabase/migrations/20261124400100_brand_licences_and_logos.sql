-- Brand directory, the two data gaps of issue 18 (decision 151): several licences per brand, and logos
-- uploaded to a storage bucket. Tables, columns, constraints, indexes, the bucket and the data move
-- only: functions, triggers and policies live in supabase/definitions/brands_licences.sql and
-- brands_logos.sql.

-- ---------------------------------------------------------------------------------------------------
-- brand_licences: every licence a brand holds, each with its own verification. One is the primary
-- (promoted) licence; public.brands' licence_* and verification columns mirror it, so the directory's
-- cards, filters and search keep reading one row per brand.
-- ---------------------------------------------------------------------------------------------------
create table if not exists public.brand_licences (
  id uuid primary key default gen_random_uuid(),
  brand_id uuid not null references public.brands (id) on delete cascade,
  number text not null
    constraint brand_licences_number_format check (number ~ '^[A-Za-z0-9][A-Za-z0-9 ./#-]{0,63}$'),
  state text not null
    constraint brand_licences_state_format check (state ~ '^[A-Z]{2}$'),
  type text
    constraint brand_licences_type_format
    check (type is null or (private.trimmed_length(type) between 1 and 100 and not private.has_html(type))),
  expires_on date,
  verification text not null default 'unverified'
    constraint brand_licences_verification_check check (verification in ('unverified', 'verified', 'expired')),
  verified_at timestamptz,
  -- The verifying admin's account id (no foreign key, like brands.verified_by).
  verified_by uuid,
  verification_note text
    constraint brand_licences_verification_note_format
    check (verification_note is null or (char_length(verification_note) <= 2000 and not private.has_script_markup(verification_note))),
  is_primary boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A verified licence names its date and evidence (as brands_verified_complete).
  constraint brand_licences_verified_complete
    check (verification <> 'verified' or (verified_at is not null and private.trimmed_length(coalesce(verification_note, '')) >= 3))
);
-- The same licence (state and number, case-insensitive) is listed once per brand.
create unique index if not exists brand_licences_number_key on public.brand_licences (brand_id, state, upper(number));
-- One primary licence per brand.
create unique index if not exists brand_licences_primary_key on public.brand_licences (brand_id) where is_primary;
alter table public.brand_licences enable row level security;
revoke truncate, references, trigger on public.brand_licences from anon, authenticated;

-- Existing licences become each brand's primary licence, verification and all.
insert into public.brand_licences (brand_id, number, state, type, expires_on, verification, verified_at,
  verified_by, verification_note, is_primary, created_at, updated_at)
select b.id, b.licence_number, b.licence_state, b.licence_type, b.licence_expires_on, b.verification,
  case when b.verification = 'unverified' then null else b.verified_at end,
  case when b.verification = 'unverified' then null else b.verified_by end,
  b.verification_note, true, b.created_at, b.updated_at
from public.brands b
where b.licence_number is not null and b.licence_state is not null
  and (b.verification <> 'verified' or b.verified_at is not null)
on conflict do nothing;

-- ---------------------------------------------------------------------------------------------------
-- Logos: a public bucket; objects under {brand_id}/. 2 MB, raster images only (no SVG: it can carry
-- script). The storage service checks the type against the bytes (decision 044).
-- ---------------------------------------------------------------------------------------------------
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('brand-logos', 'brand-logos', true, 2097152, array['image/jpeg', 'image/png', 'image/webp', 'image/gif'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types,
  updated_at = now();

-- A logo is an https address, or this brand's own object in brand-logos (http too: a development
-- server has no TLS), so a brand cannot show another brand's uploaded logo.
alter table public.brands drop constraint if exists brands_logo_url_format;
alter table public.brands add constraint brands_logo_url_format
  check (logo_url is null or private.brands_is_https_url(logo_url)
    or (char_length(logo_url) <= 2048 and private.is_http_url(logo_url)
      and logo_url ~ ('^https?://[^[:space:]/?#<>"]+(/[^[:space:]?#<>"]*)?/storage/v1/object/public/brand-logos/'
        || id::text || '/[A-Za-z0-9._-]{1,200}$')));
