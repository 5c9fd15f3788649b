-- Sorting by relevance ranks the newest this many matches (decision 114): a common word matches tens
-- of thousands of articles, and ranking them all costs more than a page may take.
create or replace function private.news_relevance_window() returns integer
language sql immutable set search_path = '' as $$ select 1000 $$;
revoke all on function private.news_relevance_window() from public;

-- A team post's Markdown as plain text for the feed's excerpt (issue 34 item 4): images dropped, links
-- as their text, HTML tags, heading, quote and list markers, emphasis and code marks removed, white space
-- folded. The post's own page (/news/posts/:id) shows the rendered Markdown.
create or replace function private.markdown_excerpt(p_markdown text) returns text
language sql immutable set search_path = '' as $$
  select btrim(regexp_replace(
    regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
      regexp_replace(p_markdown,
        '!\[[^]]*\]\([^)]*\)', ' ', 'g'),
        '\[([^]]*)\]\([^)]*\)', '\1', 'g'),
        '<[^>]*>', ' ', 'g'),
        '(^|\n)[ \t]*(#{1,6}|>|[-*+]|[0-9]+[.)])[ \t]+', '\1', 'g'),
        '(\*{1,3}|~~|`+)', '', 'g'),
        '(^|[^[:alnum:]])_{1,3}|_{1,3}([^[:alnum:]]|$)', '\1\2', 'g'),
        '(^|\n)[ \t]*([-*_][ \t]*){3,}(\n|$)', '\1', 'g'),
    '\s+', ' ', 'g'))
$$;
revoke all on function private.markdown_excerpt(text) from public;

-- The news page's one read (product §news, decision 111): articles and the team's published posts,
-- newest first (or, with a search, most relevant first), one page at a time by keyset.
--
--   rpc('news_feed', { p_query, p_category, p_sort, p_before_at, p_before_id, p_before_rank, p_limit })
--
-- p_category: a source category, or 'Team' for the team's posts only. p_sort: 'newest' (default) or
-- 'relevance' (with a query: the newest 1,000 matches, most relevant first). The next page passes the
-- last row's published_at, id (and rank when sorting by relevance). Highlights mark matches with
-- U+E000 … U+E001 (private-use characters the server strips from feed text), so the page renders them
-- as <mark> without parsing any HTML.
-- Security definer: it applies the visibility rule itself (never a hidden article) so that the search
-- and feed indexes serve it (a policy's condition would have to run first; decision 092).

drop function if exists public.news_feed(text, text, text, timestamptz, uuid, real, integer);
create or replace function public.news_feed(
  p_query text default null,
  p_category text default null,
  p_sort text default 'newest',
  p_before_at timestamptz default null,
  p_before_id uuid default null,
  p_before_rank real default null,
  p_limit integer default 20
) returns table (
  kind text,
  id uuid,
  title text,
  url text,
  summary text,
  image_url text,
  source_name text,
  category text,
  published_at timestamptz,
  is_sample boolean,
  also_reported_by jsonb,
  title_highlight text,
  summary_highlight text,
  rank real
)
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_query tsquery;
  v_relevance boolean;
  v_limit integer := coalesce(p_limit, 20);
  v_opts text := format('StartSel=%s, StopSel=%s, HighlightAll=true', chr(57344), chr(57345));
  v_where text;
  v_articles text;
begin
  if char_length(p_query) > 200 then
    raise exception 'search text is too long (at most 200 characters)' using errcode = '22023';
  end if;
  if char_length(p_category) > 40 then
    raise exception 'category is too long (at most 40 characters)' using errcode = '22023';
  end if;
  if v_limit < 1 or v_limit > 50 then
    raise exception 'p_limit must be between 1 and 50' using errcode = '22023';
  end if;
  if coalesce(p_sort, 'newest') not in ('newest', 'relevance') then
    raise exception 'p_sort must be newest or relevance' using errcode = '22023';
  end if;
  if (p_before_at is null) <> (p_before_id is null) then
    raise exception 'p_before_at and p_before_id go together' using errcode = '22023';
  end if;
  if nullif(btrim(p_query), '') is not null then
    v_query := websearch_to_tsquery('english'::regconfig, p_query);
  end if;
  v_relevance := v_query is not null and p_sort = 'relevance';
  if v_relevance and p_before_at is not null and p_before_rank is null then
    raise exception 'p_before_rank is needed to page by relevance' using errcode = '22023';
  end if;

  -- One statement built for this call (decision 114): only the conditions that apply, so that each
  -- call is planned for its own values — the feed index for the feed, a category or a common word
  -- (newest first, stopping at the page), the search index for a rare word — instead of one cached
  -- plan for every combination. Relevance ranks only the newest private.news_relevance_window() matches.
  v_where := 'a.listed';
  if p_category is not null then
    v_where := v_where || ' and a.category = $2';
  end if;
  if v_query is not null then
    v_where := v_where || ' and a.search @@ $1';
  end if;
  if v_relevance then
    v_articles := format($q$
      select r.* from (
        select 'article'::text as kind, a.id, a.title, a.url, a.summary, a.image_url, a.source_name, a.category,
               a.published_at, a.is_sample, a.story_id, ts_rank(a.search, $1) as rank
        from (
          select a.* from public.news_articles as a
          where %s
          order by a.published_at desc, a.id desc
          limit %s
        ) as a
      ) as r
      where $3 is null or (r.rank, r.published_at, r.id) < ($5, $3, $4)
      order by r.rank desc, r.published_at desc, r.id desc
      limit $6$q$, v_where, private.news_relevance_window());
  else
    if p_before_at is not null then
      v_where := v_where || ' and (a.published_at, a.id) < ($3, $4)';
    end if;
    v_articles := format($q$
      select 'article'::text as kind, a.id, a.title, a.url, a.summary, a.image_url, a.source_name, a.category,
             a.published_at, a.is_sample, a.story_id, %s as rank
      from public.news_articles as a
      where %s
      order by a.published_at desc, a.id desc
      limit $6$q$, case when v_query is null then '0::real' else 'ts_rank(a.search, $1)' end, v_where);
  end if;

  return query execute format($q$
  with page as (
    (%s)
    union all
    (
      select 'post'::text, p.id, p.title, null::text, left(private.markdown_excerpt(p.content), 600),
             p.media_urls[1], 'HighGrade team'::text,
             'Team'::text, coalesce(p.publish_at, p.created_at), false, null::uuid,
             case when $1 is null then 0::real
                  else ts_rank(to_tsvector('english'::regconfig, p.title || ' ' || p.content), $1) end
      from public.admin_posts as p
      where p.status = 'published' and (p.publish_at is null or p.publish_at <= now())
        and ($2 is null or $2 = 'Team')
        and ($1 is null or to_tsvector('english'::regconfig, p.title || ' ' || p.content) @@ $1)
        and ($8 or $3 is null or (coalesce(p.publish_at, p.created_at), p.id) < ($3, $4))
        and (not $8 or $3 is null
             or (ts_rank(to_tsvector('english'::regconfig, p.title || ' ' || p.content), $1), coalesce(p.publish_at, p.created_at), p.id)
                < ($5, $3, $4))
      order by case when $8
                 then ts_rank(to_tsvector('english'::regconfig, p.title || ' ' || p.content), $1) end desc nulls last,
               coalesce(p.publish_at, p.created_at) desc, p.id desc
      limit $6
    )
  ), top as (
    select * from page as g
    order by case when $8 then g.rank end desc nulls last, g.published_at desc, g.id desc
    limit $6
  )
  select t.kind, t.id, t.title, t.url, t.summary, t.image_url, t.source_name, t.category, t.published_at,
         t.is_sample,
         coalesce((
           select jsonb_agg(jsonb_build_object('source_name', o.source_name, 'url', o.url) order by o.published_at)
           from public.news_articles as o
           where t.story_id is not null and o.story_id = t.story_id and o.id <> t.id and not o.hidden
         ), '[]'::jsonb),
         case when $1 is null then t.title else ts_headline('english'::regconfig, t.title, $1, $7) end,
         case when $1 is null or t.summary is null then t.summary
              else ts_headline('english'::regconfig, t.summary, $1, $7) end,
         t.rank
  from top as t
  order by case when $8 then t.rank end desc nulls last, t.published_at desc, t.id desc$q$, v_articles)
  using v_query, p_category, p_before_at, p_before_id, p_before_rank, v_limit, v_opts, v_relevance;
end
$$;
revoke all on function public.news_feed(text, text, text, timestamptz, uuid, real, integer) from public;
grant execute on function public.news_feed(text, text, text, timestamptz, uuid, real, integer)
  to anon, authenticated, service_role;
