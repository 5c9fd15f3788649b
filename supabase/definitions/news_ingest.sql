-- What the server's feed fetcher writes (server/functions/news-feeds.ts, decisions 112–113). Called by
-- the server's own role only; each call is one transaction: the articles and the source's record.

-- Near-duplicate titles from different sources within this many hours are one story.
create or replace function private.news_story_window() returns interval
language sql immutable set search_path = '' as $$ select interval '48 hours' $$;

-- Adds the items of one fetch of one source (already parsed and sanitised by the server):
--   p_items: [{guid, title, url, summary, image_url, author, published_at}, …]
-- De-duplication: an item whose GUID this source already delivered, or whose normalised URL any
-- source delivered, adds nothing. Each new article joins the story of the most similar title that
-- another source published within the window (pg_trgm similarity ≥ 0.5), else starts its own.
-- Records the fetch on the source (status ok, validators, counts). Returns the number of new articles.
create or replace function private.news_ingest(
  p_source uuid, p_items jsonb, p_etag text default null, p_last_modified text default null
) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_source public.news_sources;
  v_ids uuid[];
  v_new integer;
begin
  -- One ingest per source at a time (a manual refresh racing the schedule waits here).
  select * into v_source from public.news_sources where id = p_source for update;
  if not found then
    raise exception 'news source % does not exist', p_source using errcode = 'P0002';
  end if;
  if jsonb_typeof(p_items) is distinct from 'array' then
    raise exception 'items must be a JSON array' using errcode = '22023';
  end if;

  with input as (
    select x.*, row_number() over () as n
    from jsonb_to_recordset(p_items) as x(
      guid text, title text, url text, summary text, image_url text, author text, published_at timestamptz)
  ), fresh as (
    select gen_random_uuid() as id, i.* from input as i
  ), inserted as (
    insert into public.news_articles as a
      (id, story_id, source_id, guid, title, url, url_key, summary, image_url, author, source_name, category,
       published_at, fingerprint)
    select f.id, f.id, p_source, f.guid, f.title, f.url, private.news_url_key(f.url), f.summary, f.image_url,
           f.author, v_source.name, v_source.category, coalesce(least(f.published_at, now()), now()),
           private.news_fingerprint(f.title)
    from fresh as f
    order by f.n
    on conflict do nothing
    returning a.id
  )
  select coalesce(array_agg(id), '{}') into v_ids from inserted;
  v_new := cardinality(v_ids);

  if v_new > 0 then
    -- Candidates first: the first articles of stories from other sources within the window of this
    -- batch's dates (the feed index serves the range). Their number follows how much is published in
    -- a few days, not the size of the table, which a trigram index lookup per title would (common
    -- trigrams such as "the" or "ing" have posting lists as long as the table).
    with batch as (
      select n2.id, n2.fingerprint, n2.published_at from public.news_articles as n2 where n2.id = any (v_ids)
    ), candidates as materialized (
      select o.story_id, o.fingerprint, o.published_at, o.id
      from public.news_articles as o
      where o.story_id = o.id
        and not o.hidden
        and o.source_id is not null
        and o.source_id <> p_source
        and o.published_at between (select min(b.published_at) from batch as b) - private.news_story_window()
                               and (select max(b.published_at) from batch as b) + private.news_story_window()
    ), matched as (
      -- For each new article, the most similar candidate of its own window; similarity is computed
      -- only for those (the fence keeps the planner from testing similarity on the whole set first).
      select b.id, best.story_id
      from batch as b
      cross join lateral (
        select c.story_id, extensions.similarity(c.fingerprint, b.fingerprint) as score
        from (
          select * from candidates as c0
          where c0.published_at between b.published_at - private.news_story_window()
                                    and b.published_at + private.news_story_window()
          offset 0
        ) as c
        order by score desc, c.published_at, c.id
        limit 1
      ) as best
      where best.score >= 0.5
    )
    update public.news_articles as n
    set story_id = m.story_id
    from matched as m
    where n.id = m.id;
  end if;

  update public.news_sources
  set last_fetched_at = now(), last_status = 'ok', last_error = null, last_new_count = v_new,
      item_count = item_count + v_new,
      etag = left(p_etag, 500), last_modified = left(p_last_modified, 100)
  where id = p_source;
  return v_new;
end
$$;

-- A fetch that brought nothing new: 'not_modified' (HTTP 304) or 'error' with the reason an admin reads.
create or replace function private.news_record_fetch(p_source uuid, p_status text, p_error text default null)
returns void
language sql volatile security definer set search_path = ''
as $$
  update public.news_sources
  set last_fetched_at = now(), last_status = p_status, last_error = left(p_error, 500), last_new_count = 0
  where id = p_source
$$;

revoke all on function
  private.news_story_window(),
  private.news_ingest(uuid, jsonb, text, text),
  private.news_record_fetch(uuid, text, text)
from public;
