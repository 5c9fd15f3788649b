-- The admins' article list and search (/admin/news, decision 257).
-- Every article newest first, hidden ones and a story's later ones included: the feed's indexes hold
-- only listed articles, so the admins' list sorted the whole table for each page.
create index if not exists news_articles_published_idx on public.news_articles (published_at desc, id desc);
-- The title's words, by trigram, for public.admin_find_articles to count a search's matches (dropped
-- by 20261124200100 when story grouping stopped reading it).
create index if not exists news_articles_fingerprint_trgm_idx on public.news_articles
  using gin (fingerprint extensions.gin_trgm_ops);
