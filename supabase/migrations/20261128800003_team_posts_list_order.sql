-- The admins' list of team posts reads a page from an index in either order it asks for (`created_at`
-- then `id`, newest or oldest first), not every post (issue 40 part 4, bench/scale.ts): it sorted all
-- posts for each page, 5 ms with 10,000 posts and 61 ms with 100,000.
create index if not exists admin_posts_created_at_id_idx on public.admin_posts (created_at, id);
