-- Pass or Gas's short name searches (decision 261): a search without three letters or digits in a row
-- ("OG", "C4", "7") has no trigram for products_name_trgm_idx to count its matches through, so
-- public.search_products read the list's order until a page was full — every product for a rare one
-- (about 300 ms among 500,000). Each product's name now also holds its one- and two-character runs of
-- letters and digits, in lower case, in a GIN index: every run of such a search must be among them, so
-- the matches are counted through it first, as longer searches count through the trigrams.
-- Here, not in definitions/: the index depends on the function, which must not change under it.
create or replace function private.name_grams(p_name text) returns text[]
language sql immutable strict parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(distinct g.gram), '{}')
  from (select lower(p_name) as s) n
  cross join lateral pg_catalog.generate_series(1, pg_catalog.char_length(n.s)) as i
  cross join lateral (values (pg_catalog.substr(n.s, i, 1)), (pg_catalog.substr(n.s, i, 2))) as g (gram)
  where g.gram ~ '^[[:alnum:]]{1,2}$'
$$;
revoke all on function private.name_grams(text) from public;
grant execute on function private.name_grams(text) to anon, authenticated, service_role;

create index if not exists products_name_grams_idx on public.products using gin (private.name_grams(name));
-- The same for the admins' brand search (public.admin_find_brands, decision 260).
create index if not exists brands_name_grams_idx on public.brands using gin (private.name_grams(name));
