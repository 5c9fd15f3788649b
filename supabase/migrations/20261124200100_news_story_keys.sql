-- News at size (issue 16, decision 114): story grouping compares a new title only with articles that
-- share at least two of its key words, instead of with every other source's article in the window.
--
-- story_keys: the title's five longest English lexemes (stemmed, stop words dropped; ties in
-- alphabetical order). Long words are the rare ones ("dispensari", "licens", "ohio" rather than
-- "new" or "say"), so two headlines of one event share some of them while unrelated headlines of the
-- same days seldom share two. Kept by the database (a generated column) so every path into the table
-- agrees, the bench's bulk fill included.

create or replace function private.news_story_keys(title text) returns text[]
language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(array_agg(k.word order by char_length(k.word) desc, k.word), '{}')
  from (
    select w.word
    from unnest(tsvector_to_array(to_tsvector('english'::regconfig, coalesce(title, '')))) as w(word)
    order by char_length(w.word) desc, w.word
    limit 5
  ) as k
$$;
revoke all on function private.news_story_keys(text) from public;
-- A generated column's expression runs as whoever writes the row (the server, an admin hiding one).
grant execute on function private.news_story_keys(text) to anon, authenticated, service_role;

alter table public.news_articles
  add column if not exists story_keys text[] generated always as (private.news_story_keys(title)) stored;

-- Grouping no longer looks titles up by trigram (decision 114): the index only cost every insert.
drop index if exists public.news_articles_fingerprint_trgm_idx;

-- listed: what the feed shows (a story's first article, not hidden), as a column of its own so that
-- the planner knows how many rows the feed indexes hold. Their old predicate `story_id = id` compares
-- two columns, which PostgreSQL estimates at 0.5 % of the table whatever the data: at 200,000
-- articles it then combined the whole feed index with the search index for a two-word search (1.7 s)
-- instead of reading the feed index newest first until a page was full (decision 114).
alter table public.news_articles
  add column if not exists listed boolean generated always as (story_id = id and not hidden) stored;
create index if not exists news_articles_listed_idx on public.news_articles (published_at desc, id desc)
  where listed;
create index if not exists news_articles_listed_category_idx on public.news_articles (category, published_at desc, id desc)
  where listed;
drop index if exists public.news_articles_feed_idx;
drop index if exists public.news_articles_category_feed_idx;
