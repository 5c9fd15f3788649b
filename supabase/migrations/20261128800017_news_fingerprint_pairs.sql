-- The admins' article search for words that meet in no title (issue 40 part 4, decision 267). Through
-- the joined fingerprint's trigrams (decision 266) such a search still intersects the lists of its
-- trigrams, and each of a common word's is as long as the word is common: the search's cost grew
-- with the articles (4.4× at ten times today's). Here each place where two words meet in a title is
-- a key of its own, the last three characters of the one and the first three of the next ("bis ind"
-- in "cannabis index"), and a search for words that never meet finds its key in no list, or a short
-- one. The fingerprint's own `like` still decides; a key is a necessary condition of it.
-- Here, not in definitions/: the index depends on the function, which must not change under it.
create or replace function private.news_fingerprint_pairs(p_fingerprint text) returns text[]
language sql immutable strict parallel safe
set search_path = ''
as $$
  select coalesce(
    pg_catalog.array_agg(pg_catalog.right(w.words[i], 3) || ' ' || pg_catalog.left(w.words[i + 1], 3)),
    '{}')
  from (select pg_catalog.string_to_array(p_fingerprint, ' ') as words) w,
    pg_catalog.generate_series(1, pg_catalog.cardinality(w.words) - 1) as i
$$;
revoke all on function private.news_fingerprint_pairs(text) from public;
-- Computed as whoever writes the article (its index's expression), as news_fingerprint_joined is.
grant execute on function private.news_fingerprint_pairs(text) to anon, authenticated, service_role;

create index if not exists news_articles_fingerprint_pairs_idx on public.news_articles
  using gin (private.news_fingerprint_pairs(fingerprint));
