-- Where a name's words meet (issue 40 part 4, decision 270), for the name searches of Pass or Gas and
-- of the admins' product and brand lists. A search of whole words counted through the names' trigram
-- index intersects the posting lists of its trigrams, and pg_trgm takes trigrams within words only:
-- a name's number ("18336") has trigrams that millions of names share, so the admins' search for one
-- whole product name read 1,224 index pages for its one row among 5,000,000 products (2.8× today's
-- p95). As the admins' article search does since decision 267, each place where two words of a name
-- meet is a key of its own: the last three characters of the one and the first three of the next, in
-- lower case as `ilike` compares them ("ami 183" in "Raweyo Zekami 18336"). The name's own `ilike`
-- still decides; a key is a necessary condition of it.
-- Here, not in definitions/: the indexes depend on the function, which must not change under them.
create or replace function private.name_meetings(p_name text) returns text[]
language sql immutable strict parallel safe
set search_path = ''
as $$
  select private.news_fingerprint_pairs(pg_catalog.lower(p_name))
$$;
revoke all on function private.name_meetings(text) from public;
-- Computed as whoever writes a product or a brand (its indexes' expression), as name_marks is.
grant execute on function private.name_meetings(text) to anon, authenticated, service_role;

create index if not exists products_name_meetings_idx on public.products using gin (private.name_meetings(name));
create index if not exists brands_name_meetings_idx on public.brands using gin (private.name_meetings(name));
