-- Brand logos (product §brand-directory, decision 151): the public brand-logos bucket holds each
-- brand's logo under {brand_id}/. Everyone reads; admins and the brand's approved representatives
-- upload, replace and delete in that brand's folder only.

-- Whether the caller may write objects in this folder: an admin, or an approved representative of the
-- live brand the folder is named after. A folder that is not a brand id is nobody's.
create or replace function private.brands_may_write_logo(folder text) returns boolean
language plpgsql stable security definer set search_path = ''
as $$
begin
  if folder is null or folder !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  if not exists (select 1 from public.brands b where b.id = folder::uuid and b.archived_at is null) then
    return false;
  end if;
  return public.has_role('admin') or private.brands_is_representative(folder::uuid);
end
$$;
revoke all on function private.brands_may_write_logo(text) from public;
grant execute on function private.brands_may_write_logo(text) to authenticated, service_role;

drop policy if exists "brand-logos: anyone reads the bucket's settings" on storage.buckets;
create policy "brand-logos: anyone reads the bucket's settings" on storage.buckets
  for select to anon, authenticated
  using (id = 'brand-logos');

drop policy if exists "brand-logos: anyone reads" on storage.objects;
create policy "brand-logos: anyone reads" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'brand-logos');

drop policy if exists "brand-logos: admins and representatives upload" on storage.objects;
create policy "brand-logos: admins and representatives upload" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'brand-logos' and private.brands_may_write_logo((storage.foldername(name))[1]));

drop policy if exists "brand-logos: admins and representatives replace" on storage.objects;
create policy "brand-logos: admins and representatives replace" on storage.objects
  for update to authenticated
  using (bucket_id = 'brand-logos' and private.brands_may_write_logo((storage.foldername(name))[1]))
  with check (bucket_id = 'brand-logos' and private.brands_may_write_logo((storage.foldername(name))[1]));

drop policy if exists "brand-logos: admins and representatives delete" on storage.objects;
create policy "brand-logos: admins and representatives delete" on storage.objects
  for delete to authenticated
  using (bucket_id = 'brand-logos' and private.brands_may_write_logo((storage.foldername(name))[1]));
