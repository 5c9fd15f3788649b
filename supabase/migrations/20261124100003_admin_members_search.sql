-- Admins find members by email, username or name (product §admin, issue 15 "Members and roles").
-- One trigram index over the three, lower-cased, so `ilike '%…%'` among 100,000 members reads the index
-- rather than every profile; public.admin_members (supabase/definitions/admin_members.sql) exposes the
-- same expression as `search_text`. And the list's default order, newest members first.

create index if not exists profiles_member_search_trgm_idx
  on public.profiles
  using gin ((lower(coalesce(email, '') || ' ' || coalesce(username, '') || ' ' || coalesce(full_name, ''))) extensions.gin_trgm_ops);

create index if not exists profiles_created_at_user_id_idx on public.profiles (created_at, user_id);
