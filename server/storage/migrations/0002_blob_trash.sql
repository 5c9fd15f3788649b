-- Blobs set aside by an operation that removes objects together with other data in one all-or-nothing
-- step: the GDPR account deletion of /functions/v1 (docs/decisions/072-account-deletion-all-or-nothing.md).
--
-- Such an operation first records each blob it will move here ('pending', committed on its own), then
-- moves the blobs aside under new keys, then deletes the rows in one transaction that also flips its
-- entries to 'purge'. Whatever happens after that, this table says what to do with every blob:
--   'purge'    the rows are gone for good: remove the blob under aside_key;
--   'pending'  the transaction never committed (failure or crash): put the blob back under
--              original_key if a row still references it, else remove it.
-- Holds only opaque blob keys, never a user id or a name, so it keeps no personal data.
-- Only the server (the connecting role) reads and writes it.
create table if not exists storage.blob_trash (
  aside_key text primary key,
  original_key text not null,
  operation_id uuid not null,
  state text not null default 'pending' constraint blob_trash_state_check check (state in ('pending', 'purge')),
  created_at timestamptz not null default now()
);
create index if not exists blob_trash_operation_id_idx on storage.blob_trash (operation_id);
create index if not exists blob_trash_state_created_at_idx on storage.blob_trash (state, created_at);
-- Finding whether a set-aside blob is still referenced (restore or purge) asks objects by version.
create index if not exists objects_version_idx on storage.objects (version);

alter table storage.blob_trash enable row level security;
revoke all on table storage.blob_trash from public, anon, authenticated, service_role;
