-- The two keys news de-duplication and story grouping compare (decision 113), in SQL so that every
-- path into news_articles computes them the same way.

-- The article's address without what does not change the page: scheme, "www.", default port, fragment,
-- tracking parameters (utm_*, fbclid, gclid, …) and trailing slashes; host in lower case.
--   https://www.Example.com/a/?utm_source=x&id=2#top  →  example.com/a?id=2
create or replace function private.news_url_key(url text) returns text
language sql immutable parallel safe set search_path = ''
as $$
  with parts as (
    select regexp_match(url, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?') as m
  )
  select left(
    regexp_replace(regexp_replace(lower(m[1]), '^www\.', ''), ':(80|443)$', '')
    || regexp_replace(coalesce(m[2], ''), '/+$', '')
    || coalesce('?' || (
      select string_agg(p.param, '&' order by p.n)
      from unnest(string_to_array(m[3], '&')) with ordinality as p(param, n)
      where p.param <> ''
        and p.param !~* '^(utm_[^=]*|fbclid|gclid|dclid|gbraid|wbraid|msclkid|mc_cid|mc_eid|_hsenc|_hsmi|igshid|yclid|ref|ref_src|cmpid|ncid|sr_share)(=|$)'
    ), ''),
    2048)
  from parts
$$;

-- The title as lower-case words and digits separated by single spaces: what pg_trgm compares.
create or replace function private.news_fingerprint(title text) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select left(btrim(regexp_replace(lower(title), '[^[:alnum:]]+', ' ', 'g')), 500)
$$;

revoke all on function private.news_url_key(text), private.news_fingerprint(text) from public;
