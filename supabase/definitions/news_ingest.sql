-- What the server's feed fetcher writes (server/functions/news-feeds.ts, decisions 112–113). Called by
-- the server's own role only; each call is one transaction: the articles and the source's record.

-- Near-duplicate titles from different sources within this many hours are one story.
create or replace function private.news_story_window() returns interval
language sql immutable set search_path = '' as $$ select interval '48 hours' $$;

-- Adds the items of one fetch of one source (already parsed and sanitised by the server):
--   p_items: [{guid, title, url, summary, image_url, author, published_at}, …]
-- De-duplication: an item whose GUID this source already delivered, or whose normalised URL any
-- source delivered, adds nothing. Each new article joins the story of the most similar title that
-- another source published within the window (pg_trgm similarity ≥ 0.5 among the titles sharing two
-- key words, decision 114), else starts its own.
-- Records the fetch on the source (status ok, validators, counts). Returns the number of new articles.
create or replace function private.news_ingest(
  p_source uuid, p_items jsonb, p_etag text default null, p_last_modified text default null
) returns integer
language plpgsql volatile security definer set search_path = ''
-- The grouping's hash join and aggregate fit in memory for a full feed; JIT compilation (0.1 s, by
-- cost estimate) would cost more than the statement saves.
set work_mem = '32MB' set jit = off
as $$
declare
  v_source public.news_sources;
  v_ids uuid[];
  v_new integer;
  v_from timestamptz;
  v_to timestamptz;
begin
  -- One ingest per source at a time (a manual refresh racing the schedule waits here).
  select * into v_source from public.news_sources where id = p_source for update;
  if not found then
    raise exception 'news source % does not exist', p_source using errcode = 'P0002';
  end if;
  if jsonb_typeof(p_items) is distinct from 'array' then
    raise exception 'items must be a JSON array' using errcode = '22023';
  end if;

  -- Items this source or any other already delivered are dropped first, by two index probes each,
  -- before anything is computed for a new row (the search vector, the story keys); `on conflict do
  -- nothing` still settles a race with another source's ingest.
  with input as (
    select x.*, row_number() over () as n, private.news_url_key(x.url) as url_key
    from jsonb_to_recordset(p_items) as x(
      guid text, title text, url text, summary text, image_url text, author text, published_at timestamptz)
  ), fresh as (
    select gen_random_uuid() as id, i.* from input as i
    where not exists (
        select 1 from public.news_articles as d where d.source_id = p_source and d.guid = i.guid)
      and not exists (select 1 from public.news_articles as d where d.url_key = i.url_key)
  ), inserted as (
    insert into public.news_articles as a
      (id, story_id, source_id, guid, title, url, url_key, summary, image_url, author, source_name, category,
       published_at, fingerprint)
    select f.id, f.id, p_source, f.guid, f.title, f.url, f.url_key, f.summary, f.image_url,
           f.author, v_source.name, v_source.category, coalesce(least(f.published_at, now()), now()),
           private.news_fingerprint(f.title)
    from fresh as f
    order by f.n
    on conflict do nothing
    returning a.id, a.published_at
  )
  select coalesce(array_agg(id), '{}'), min(published_at), max(published_at) into v_ids, v_from, v_to
  from inserted;
  v_new := cardinality(v_ids);

  if v_new > 0 then
    -- Story grouping (decision 114). Candidates: the first articles of stories from other sources
    -- within the window of this batch's dates (the feed index serves the range; their number follows
    -- how much is published in a few days, not the size of the table). A new article and a candidate
    -- are compared (pg_trgm similarity of their fingerprints) only when they share at least two of
    -- their key words (story_keys; all of them when a title has fewer), found by one hash join on the
    -- words: a few comparisons per article instead of one per candidate. Planned for this call's
    -- dates (EXECUTE), so the planner knows how many candidates there are.
    execute $q$
    with batch as materialized (
      select n2.id, n2.fingerprint, n2.published_at, n2.story_keys
      from public.news_articles as n2 where n2.id = any ($1)
    ), candidates as materialized (
      select o.id, o.fingerprint, o.published_at, o.story_keys
      from public.news_articles as o
      where o.listed
        and o.source_id is not null
        and o.source_id <> $2
        and o.published_at between $3 - private.news_story_window() and $4 + private.news_story_window()
    ), batch_words as materialized (
      select b.id, b.published_at, k.word, cardinality(b.story_keys) as words
      from batch as b cross join unnest(b.story_keys) as k(word)
    ), candidate_words as materialized (
      select c.id, c.published_at, k.word, cardinality(c.story_keys) as words
      from candidates as c cross join unnest(c.story_keys) as k(word)
    ), pairs as (
      select bw.id as article_id, cw.id as candidate_id
      from batch_words as bw
      join candidate_words as cw on cw.word = bw.word
      where cw.published_at between bw.published_at - private.news_story_window()
                                and bw.published_at + private.news_story_window()
      group by bw.id, cw.id
      having count(*) >= least(2, min(bw.words), min(cw.words))
    ), matched as (
      select distinct on (p.article_id) p.article_id as id, c.id as story_id
      from pairs as p
      join batch as b on b.id = p.article_id
      join candidates as c on c.id = p.candidate_id
      where extensions.similarity(c.fingerprint, b.fingerprint) >= 0.5
      order by p.article_id, extensions.similarity(c.fingerprint, b.fingerprint) desc, c.published_at, c.id
    )
    update public.news_articles as n
    set story_id = m.story_id
    from matched as m
    where n.id = m.id
    $q$ using v_ids, p_source, v_from, v_to;
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
