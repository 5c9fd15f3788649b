-- Files are written only by accounts that exist (docs/decisions/073-deleted-accounts-write-nothing.md).
--
-- An access token outlives the account it was issued for by up to JWT_EXPIRY. Every product table
-- references auth.users, so a deleted account's token can no longer write a row anywhere; but
-- storage.objects.owner is deliberately not a foreign key (as on Supabase), so without this a deleted
-- user could still upload into their old user-uploads folder: a file nobody owns, after the GDPR
-- deletion promised that everything was gone.
--
-- Restrictive policies: they are ANDed with the bucket policies of 20261122100000_storage_buckets.sql
-- (and any later ones) without changing them. The check takes a KEY SHARE lock on the account row, as
-- a foreign-key check does, so an upload racing an account deletion either finishes before the
-- deletion (which then removes its file too) or waits for it and is refused. Portable: only standard
-- PostgreSQL and what every Supabase project has.

create or replace function private.caller_account_exists() returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform 1 from auth.users u where u.id = (select auth.uid()) for key share;
  return found;
end
$$;
comment on function private.caller_account_exists() is
  'Whether the calling user''s account (auth.uid()) exists; locks it against deletion until the transaction ends.';
revoke all on function private.caller_account_exists() from public;
grant execute on function private.caller_account_exists() to authenticated;

drop policy if exists "objects: only existing accounts upload" on storage.objects;
create policy "objects: only existing accounts upload" on storage.objects
  as restrictive for insert to authenticated
  with check ((select private.caller_account_exists()));

drop policy if exists "objects: only existing accounts change files" on storage.objects;
create policy "objects: only existing accounts change files" on storage.objects
  as restrictive for update to authenticated
  using ((select private.caller_account_exists()))
  with check ((select private.caller_account_exists()));
