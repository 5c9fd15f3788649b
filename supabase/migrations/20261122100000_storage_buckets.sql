-- HighGrade storage: the product's two buckets (spec §3 "Storage buckets") and who may do what in
-- them, as row-level-security policies on storage.objects. Uses only what every Supabase project has
-- (storage.buckets, storage.objects, storage.foldername(), auth.uid(), public.has_role()), so it runs
-- unchanged on a hosted project. Safe to run twice.
--
-- Both buckets are public: anyone may fetch an object by its URL (/object/public/...), which is how
-- avatars and post images reach the page. Policies govern everything else: listing, signed URLs,
-- uploads, replacements, moves and deletions.
--
-- Limits (design.md §4: the general image limit is one constant, default 5 MB) and the image types of
-- spec §5 (JPEG, PNG, WebP, GIF) live on the buckets, so the service enforces them while streaming.
-- To use the 2 MB reading of spec §5 instead, lower file_size_limit with a later migration.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('user-uploads', 'user-uploads', true, 5242880,
    array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('community-review-media', 'community-review-media', true, 5242880,
    array['image/jpeg', 'image/png', 'image/webp', 'image/gif'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types,
  updated_at = now();

-- The two buckets' settings (limits, types) are no secret: the web app may read them for its hints.
drop policy if exists "product buckets: anyone reads their settings" on storage.buckets;
create policy "product buckets: anyone reads their settings" on storage.buckets
  for select to anon, authenticated
  using (id in ('user-uploads', 'community-review-media'));

-- ---------------------------------------------------------------------------------------------------
-- user-uploads: every signed-in user owns the folder named after their id ({auth.uid()}/...), where
-- the web app writes avatars ({userId}/avatar-{timestamp}.{ext}). Nobody lists or changes another
-- user's folder; admins may see and remove anything here (moderation of avatars).
-- ---------------------------------------------------------------------------------------------------

drop policy if exists "user-uploads: owners read their folder" on storage.objects;
create policy "user-uploads: owners read their folder" on storage.objects
  for select to authenticated
  using (bucket_id = 'user-uploads' and (storage.foldername(name))[1] = (select auth.uid())::text);

drop policy if exists "user-uploads: admins read all" on storage.objects;
create policy "user-uploads: admins read all" on storage.objects
  for select to authenticated
  using (bucket_id = 'user-uploads' and (select public.has_role('admin')));

drop policy if exists "user-uploads: owners upload into their folder" on storage.objects;
create policy "user-uploads: owners upload into their folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'user-uploads' and (storage.foldername(name))[1] = (select auth.uid())::text);

drop policy if exists "user-uploads: owners replace in their folder" on storage.objects;
create policy "user-uploads: owners replace in their folder" on storage.objects
  for update to authenticated
  using (bucket_id = 'user-uploads' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'user-uploads' and (storage.foldername(name))[1] = (select auth.uid())::text);

drop policy if exists "user-uploads: owners delete from their folder" on storage.objects;
create policy "user-uploads: owners delete from their folder" on storage.objects
  for delete to authenticated
  using (bucket_id = 'user-uploads' and (storage.foldername(name))[1] = (select auth.uid())::text);

drop policy if exists "user-uploads: admins remove" on storage.objects;
create policy "user-uploads: admins remove" on storage.objects
  for delete to authenticated
  using (bucket_id = 'user-uploads' and (select public.has_role('admin')));

-- ---------------------------------------------------------------------------------------------------
-- community-review-media: media of admin posts, under admin-posts/. Anyone reads; only admins write.
-- ---------------------------------------------------------------------------------------------------

drop policy if exists "community-review-media: anyone reads" on storage.objects;
create policy "community-review-media: anyone reads" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'community-review-media');

drop policy if exists "community-review-media: admins upload post media" on storage.objects;
create policy "community-review-media: admins upload post media" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'community-review-media'
    and (storage.foldername(name))[1] = 'admin-posts'
    and (select public.has_role('admin'))
  );

drop policy if exists "community-review-media: admins replace post media" on storage.objects;
create policy "community-review-media: admins replace post media" on storage.objects
  for update to authenticated
  using (
    bucket_id = 'community-review-media'
    and (storage.foldername(name))[1] = 'admin-posts'
    and (select public.has_role('admin'))
  )
  with check (
    bucket_id = 'community-review-media'
    and (storage.foldername(name))[1] = 'admin-posts'
    and (select public.has_role('admin'))
  );

drop policy if exists "community-review-media: admins delete post media" on storage.objects;
create policy "community-review-media: admins delete post media" on storage.objects
  for delete to authenticated
  using (
    bucket_id = 'community-review-media'
    and (storage.foldername(name))[1] = 'admin-posts'
    and (select public.has_role('admin'))
  );
