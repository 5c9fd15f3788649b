-- Product images of Pass or Gas (issue 17): a public bucket admins write under products/, with the
-- general image rules of product §input-rules (JPEG, PNG, WebP, GIF; the one size constant, 5 MB).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('product-images', 'product-images', true, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/gif'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types,
  updated_at = now();

drop policy if exists "product-images: anyone reads the bucket's settings" on storage.buckets;
create policy "product-images: anyone reads the bucket's settings" on storage.buckets
  for select to anon, authenticated
  using (id = 'product-images');

drop policy if exists "product-images: anyone reads" on storage.objects;
create policy "product-images: anyone reads" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'product-images');

drop policy if exists "product-images: admins upload" on storage.objects;
create policy "product-images: admins upload" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'product-images' and (storage.foldername(name))[1] = 'products' and (select public.has_role('admin'))
  );

drop policy if exists "product-images: admins replace" on storage.objects;
create policy "product-images: admins replace" on storage.objects
  for update to authenticated
  using (bucket_id = 'product-images' and (select public.has_role('admin')))
  with check (
    bucket_id = 'product-images' and (storage.foldername(name))[1] = 'products' and (select public.has_role('admin'))
  );

drop policy if exists "product-images: admins delete" on storage.objects;
create policy "product-images: admins delete" on storage.objects
  for delete to authenticated
  using (bucket_id = 'product-images' and (select public.has_role('admin')));
