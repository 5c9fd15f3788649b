-- The `storage` schema of the file service (/storage/v1), shaped like Supabase Storage's so that
-- policies written for a hosted project apply unchanged: `storage.buckets`, `storage.objects` (with
-- owner, path tokens, system metadata and user metadata), row-level security on both, the policy
-- helpers `storage.foldername()`, `storage.filename()`, `storage.extension()`, and the grants Supabase
-- gives the API roles (RLS, not grants, decides who may do what). Safe to run twice.

create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  -- Supabase keeps both: `owner` (uuid, deprecated) and `owner_id` (the JWT's sub as text).
  owner uuid,
  owner_id text,
  public boolean not null default false,
  avif_autodetection boolean not null default false,
  -- Bytes; null = only the server's FILE_SIZE_LIMIT applies.
  file_size_limit bigint,
  -- Media types (wildcards such as image/* allowed); null or empty = any type.
  allowed_mime_types text[],
  type text not null default 'STANDARD',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint buckets_id_format check (
    char_length(id) between 1 and 100 and id ~ '^[A-Za-z0-9_!.*''() &$@=;:+,?-]+$'
  ),
  constraint buckets_file_size_limit_positive check (file_size_limit is null or file_size_limit > 0),
  constraint buckets_type_standard check (type = 'STANDARD')
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text not null references storage.buckets (id),
  name text not null,
  owner uuid,
  owner_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_accessed_at timestamptz not null default now(),
  -- What the service measured: eTag, size, mimetype, cacheControl, lastModified, contentLength,
  -- httpStatusCode (Supabase's keys).
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  -- Which stored blob holds the bytes; a new upload of the same name gets a new version.
  version text,
  -- What the uploader attached (`metadata` of storage-js).
  user_metadata jsonb,
  -- The same rules the service applies before it writes anything (decision 043), kept here too so
  -- that no path into the table (SQL editor, a future service) can store a name the API would refuse.
  constraint objects_name_format check (
    char_length(name) between 1 and 1024
    and name !~ '[[:cntrl:]]'
    and name !~ '(^/|//|/$)'
    and name !~ '(^|/)\.\.?(/|$)'
    -- 256 characters without a slash (PostgreSQL caps one repetition count at 255).
    and name !~ '[^/]{128}[^/]{128}'
  )
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

grant all on table storage.buckets, storage.objects to anon, authenticated, service_role;

create or replace function storage.update_updated_at_column() returns trigger
language plpgsql
as $$
begin
  new.updated_at = now();
  return new;
end
$$;

drop trigger if exists update_objects_updated_at on storage.objects;
create trigger update_objects_updated_at before update on storage.objects
  for each row execute function storage.update_updated_at_column();

-- Policy helpers, as on Supabase: for 'a/b/c.png', foldername = {a,b}, filename = 'c.png',
-- extension = 'png'.
create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

create or replace function storage.get_size_by_bucket() returns table (size bigint, bucket_id text)
language plpgsql stable
as $$
begin
  return query
    select sum((o.metadata ->> 'size')::bigint)::bigint as size, o.bucket_id
    from storage.objects o
    group by o.bucket_id;
end
$$;

grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text),
  storage.get_size_by_bucket() to anon, authenticated, service_role;

-- Signed upload URLs are single-use (decision 045): the token's id is recorded in the transaction that
-- writes the object, so a second upload with the same token finds it taken. Nobody reads or writes
-- the table directly; `storage.consume_upload_token` is the only way in.
create table if not exists storage.upload_token_uses (
  token_id uuid primary key,
  expires_at timestamptz not null,
  used_at timestamptz not null default now()
);
alter table storage.upload_token_uses enable row level security;
revoke all on table storage.upload_token_uses from public, anon, authenticated, service_role;
create index if not exists upload_token_uses_expires_at on storage.upload_token_uses (expires_at);

create or replace function storage.consume_upload_token(token_id uuid, expires_at timestamptz)
returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
declare
  inserted integer;
begin
  -- Expired tokens can never be presented again, so their records can go.
  delete from storage.upload_token_uses u where u.expires_at < now() - interval '1 minute';
  insert into storage.upload_token_uses (token_id, expires_at)
    values (consume_upload_token.token_id, consume_upload_token.expires_at)
    on conflict do nothing;
  get diagnostics inserted = row_count;
  return inserted = 1;
end
$$;
revoke all on function storage.consume_upload_token(uuid, timestamptz) from public;
grant execute on function storage.consume_upload_token(uuid, timestamptz) to anon, authenticated, service_role;

-- Lets an upload refuse a used token before reading its body (the consume above stays the guard).
create or replace function storage.upload_token_used(token_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from storage.upload_token_uses u where u.token_id = upload_token_used.token_id)
$$;
revoke all on function storage.upload_token_used(uuid) from public;
grant execute on function storage.upload_token_used(uuid) to anon, authenticated, service_role;
