-- The admins' article list (/admin/news, decision 257): every article, hidden ones included, newest
-- first, and with a search those whose title holds the words typed, in any case and whatever the
-- punctuation (the title's fingerprint, private.news_fingerprint, holds the search's fingerprint).
-- Through the data API the search was `title ilike` under news_articles' policy: not leakproof, so no
-- index could serve it, and a rare title word read every article in the order of the list. Here the
-- newest twenty pages' worth are read first (words one title in twenty holds fill their page
-- there, decision 266); then the matches are counted through the trigram index of the fingerprint
-- with its words joined, so that trigrams span them (news_articles_fingerprint_joined_trgm_idx,
-- decision 266) and, where its words meet, the index of the meetings (news_fingerprint_pairs,
-- decision 267; count_first.sql): a few are sorted, many are read down
-- `news_articles_published_idx` until the page is full. A search without three letters or digits
-- in a row, spaces joined, has no trigram to count through and reads the list's order.
-- Owner's rights: admins read every article under the table's policy too; others are refused.
create or replace function public.admin_find_articles(q text default null, max_rows integer default 30)
returns table (
  id uuid,
  title text,
  url text,
  source_name text,
  published_at timestamptz,
  hidden boolean,
  is_sample boolean
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_q text := btrim(coalesce(q, ''));
  v_words text;
  v_joined text;
  v_parts text[];
  v_pairs text[];
  v_keyed text := '';
  v_match text := 'true';
  v_cap integer;
  v_ids text[];
  v_newest text;
begin
  if not public.has_role('admin') then
    raise exception using errcode = '42501', message = 'Only admins can list every article.';
  end if;
  if char_length(v_q) > 200 then
    raise exception using errcode = '22023', message = 'Search for at most 200 characters.';
  end if;
  if max_rows is null or max_rows < 1 or max_rows > 1000 then
    raise exception using errcode = '22023', message = 'Ask for 1 to 1000 articles.';
  end if;

  if v_q <> '' then
    v_words := private.news_fingerprint(v_q);
    if v_words = '' then
      -- Punctuation alone: no words to find.
      return;
    end if;
    -- Only letters, digits and single spaces: nothing in it is a pattern character.
    v_match := format('a.fingerprint like %L', '%' || v_words || '%');
    -- The same words joined as the index joins them, trigrams across words included (decision 266).
    v_joined := private.news_fingerprint_joined(v_words);
    -- Where its words meet, the keys of news_fingerprint_pairs (decision 267): the last three
    -- characters of the one and the first three of the next. The first word may be the end of a
    -- title's word and the last the start of one: an edge word shorter than three makes no key.
    v_parts := pg_catalog.string_to_array(v_words, ' ');
    if pg_catalog.char_length(v_parts[1]) < 3 then
      v_parts := v_parts[2:];
    end if;
    if pg_catalog.char_length(v_parts[pg_catalog.cardinality(v_parts)]) < 3 then
      v_parts := v_parts[:pg_catalog.cardinality(v_parts) - 1];
    end if;
    v_pairs := private.news_fingerprint_pairs(pg_catalog.array_to_string(v_parts, ' '));
    if cardinality(v_pairs) > 0 then
      v_keyed := format('private.news_fingerprint_pairs(a.fingerprint) @> %L::text[] and ', v_pairs);
    end if;
  end if;

  v_newest := format('select a.id::text from public.news_articles a where %s
    order by a.published_at desc, a.id desc limit %s', v_match, max_rows);
  if v_joined is null or v_joined !~ '[[:alnum:]]{3}' then
    -- No search, or one without a trigram: newest first until the page is full.
    v_ids := private.count_first_ids(v_newest, true);
  else
    -- First walk twenty pages' worth of the newest articles (at most the cap) and keep the matches:
    -- words one title in twenty holds fill their page there, at a cost that does not grow with the
    -- articles (decision 266). Otherwise count through the joined fingerprint's trigram index, up
    -- to the cap; sort the few, read by id, or read the many newest first until the page is full
    -- (count_first.sql).
    v_cap := private.count_first_cap('public.news_articles', max_rows);
    v_ids := private.walk_then_count_page(
      format('select a.id::text from (select a.id, a.published_at, a.fingerprint
          from public.news_articles a order by a.published_at desc, a.id desc limit %s) a
        where %s order by a.published_at desc, a.id desc limit %s',
        least(20 * max_rows, v_cap), v_match, max_rows),
      max_rows,
      format('select a.id::text from public.news_articles a
        where %s private.news_fingerprint_joined(a.fingerprint) like %L and %s limit %s',
        v_keyed, '%' || v_joined || '%', v_match, v_cap + 1),
      format('select a.id::text from public.news_articles a where a.id = any(%%L::uuid[])
        order by a.published_at desc, a.id desc limit %s', max_rows),
      v_newest, v_cap);
  end if;
  -- The page's rows, in the order found.
  return query
    select a.id, a.title, a.url, a.source_name, a.published_at, a.hidden, a.is_sample
    from unnest(v_ids::uuid[]) with ordinality as m (id, n)
    join public.news_articles a on a.id = m.id
    order by m.n;
end
$$;

comment on function public.admin_find_articles(text, integer) is
  'Admins: every news article newest first, or those whose title holds the words of q (decision 257).';
