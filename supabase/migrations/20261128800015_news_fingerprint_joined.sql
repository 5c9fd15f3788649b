-- The admins' article search across its words (issue 40 part 4, decision 266). pg_trgm takes trigrams
-- within words only, so the trigrams of "cannabis index" are those of "cannabis" and of "index": the
-- fingerprint's trigram index offered every title holding both words anywhere, and with two common
-- words that is a share of all articles (at 20,000,000 articles the search passed an admin's 8 s
-- statement timeout). Joining the words with a digit ("cannabis0index") adds the trigrams that span
-- them ("is0", "s0i", "0in"), so the index offers only titles where the words meet. The fingerprint's
-- own `like` still decides; this is a necessary condition of it (a character-for-character mapping
-- keeps every substring a substring).
-- Here, not in definitions/: the index depends on the function, which must not change under it.
create or replace function private.news_fingerprint_joined(p_fingerprint text) returns text
language sql immutable strict parallel safe
set search_path = ''
as $$
  select pg_catalog.replace(p_fingerprint, ' ', '0')
$$;
revoke all on function private.news_fingerprint_joined(text) from public;

create index if not exists news_articles_fingerprint_joined_trgm_idx on public.news_articles
  using gin (private.news_fingerprint_joined(fingerprint) extensions.gin_trgm_ops);
-- Every trigram of the fingerprint within a word is also one of the joined form's: the search needs
-- only the new index (one trigram index for writers to keep, as before).
drop index if exists public.news_articles_fingerprint_trgm_idx;
