-- A news search finds the team's published posts through an index (issue 40 part 4, bench/scale.ts):
-- public.news_feed matches posts with `to_tsvector('english', title || ' ' || content) @@ query` beside
-- the articles, and without this index computed every published post's tsvector on each search — with
-- 9,000 posts, 40 ms of a 42 ms search; with it, under 1 ms.
create index if not exists admin_posts_published_search_idx
  on public.admin_posts using gin (to_tsvector('english'::regconfig, title || ' ' || content))
  where status = 'published';
