-- Name searches of no letter or digit (decision 265): "#", "%", "&", "'" or an emoji have no trigram
-- and no run of letters or digits, so public.search_products, public.admin_find_products and
-- public.admin_find_brands read their list's order until a page was full: every product or brand for
-- a rare one (about 300 ms among 500,000 products, a visitor's statement timeout at 100×). Each name
-- now also holds its other characters (not letters, digits or spaces), in lower case as `ilike`
-- compares them, in a GIN index: every such character of the search must be among them, so the
-- matches are counted through it first, as the other searches count through their indexes.
-- Here, not in definitions/: the indexes depend on the function, which must not change under them.
create or replace function private.name_marks(p_name text) returns text[]
language sql immutable strict parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(distinct c.ch), '{}')
  from pg_catalog.regexp_split_to_table(pg_catalog.lower(p_name), '') as c (ch)
  where c.ch !~ '[[:alnum:] ]'
$$;
revoke all on function private.name_marks(text) from public;
grant execute on function private.name_marks(text) to anon, authenticated, service_role;

create index if not exists products_name_marks_idx on public.products using gin (private.name_marks(name));
create index if not exists brands_name_marks_idx on public.brands using gin (private.name_marks(name));
