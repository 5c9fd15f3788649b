-- News (issue 16, product §news, decisions 111–113): the feeds the server reads (news_sources) and the
-- articles it keeps from them (news_articles). Everyone reads; only the server writes articles, and
-- only admins manage sources or hide an article. The functions, triggers and policies live in
-- supabase/definitions/news_*.sql (decision 089).

create extension if not exists pg_trgm with schema extensions;

-- ---------------------------------------------------------------------------------------------------
-- news_sources: one row per feed. The fetch columns are the server's record of its last attempt.
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.news_sources (
  id uuid primary key default gen_random_uuid(),
  name text not null
    constraint news_sources_name_length check (private.trimmed_length(name) between 1 and 120)
    constraint news_sources_name_markup check (not private.has_html(name)),
  feed_url text not null
    constraint news_sources_feed_url_format check (private.is_http_url(feed_url)),
  category text not null
    constraint news_sources_category_length check (private.trimmed_length(category) between 1 and 40)
    constraint news_sources_category_markup check (not private.has_html(category)),
  enabled boolean not null default true,
  -- Where the row came from: the data file it was seeded from (with its note), or who added it.
  origin text
    constraint news_sources_origin_length check (origin is null or char_length(origin) <= 500),
  -- Conditional GET validators of the last 200 answer (decision 112).
  etag text constraint news_sources_etag_length check (etag is null or char_length(etag) <= 500),
  last_modified text
    constraint news_sources_last_modified_length check (last_modified is null or char_length(last_modified) <= 100),
  last_fetched_at timestamptz,
  -- When a scheduled fetch last claimed the source (several server processes never fetch it twice).
  last_attempt_at timestamptz,
  last_status text constraint news_sources_last_status_check check (last_status in ('ok', 'not_modified', 'error')),
  last_error text constraint news_sources_last_error_length check (last_error is null or char_length(last_error) <= 500),
  last_new_count integer not null default 0,
  item_count integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint news_sources_feed_url_key unique (feed_url)
);

alter table public.news_sources enable row level security;
revoke all on table public.news_sources from anon, authenticated;
grant select on table public.news_sources to anon, authenticated;
-- Admins edit what a person decides; the fetch columns are the server's.
grant insert (name, feed_url, category, enabled, origin) on table public.news_sources to authenticated;
grant update (name, feed_url, category, enabled) on table public.news_sources to authenticated;
grant delete on table public.news_sources to authenticated;
grant all on table public.news_sources to service_role;

-- ---------------------------------------------------------------------------------------------------
-- news_articles: what the feeds delivered, de-duplicated (decision 113).
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.news_articles (
  id uuid primary key default gen_random_uuid(),
  -- null for sample articles (they come from no feed); a deleted source takes its articles along.
  source_id uuid references public.news_sources (id) on delete cascade,
  guid text constraint news_articles_guid_length check (guid is null or char_length(guid) <= 2048),
  title text not null
    constraint news_articles_title_length check (private.trimmed_length(title) between 1 and 500),
  url text not null constraint news_articles_url_format check (private.is_http_url(url)),
  -- The URL without scheme, www., tracking parameters, fragment or trailing slash: one article per key.
  url_key text not null constraint news_articles_url_key_length check (char_length(url_key) <= 2048),
  -- Plain text (the server sanitises feed HTML to text).
  summary text constraint news_articles_summary_length check (summary is null or char_length(summary) <= 2000),
  image_url text constraint news_articles_image_url_format check (image_url is null or private.is_http_url(image_url)),
  author text constraint news_articles_author_length check (author is null or char_length(author) <= 200),
  source_name text not null constraint news_articles_source_name_length check (char_length(source_name) <= 200),
  category text not null constraint news_articles_category_length check (char_length(category) <= 40),
  published_at timestamptz not null,
  fetched_at timestamptz not null default now(),
  -- The title reduced to lower-case words: what near-duplicate detection (pg_trgm) compares.
  fingerprint text not null constraint news_articles_fingerprint_length check (char_length(fingerprint) <= 500),
  -- The first article of its story; an article that starts a story names itself.
  story_id uuid not null,
  hidden boolean not null default false,
  is_sample boolean not null default false,
  search tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, title), 'A')
      || setweight(to_tsvector('english'::regconfig, coalesce(summary, '')), 'B')
  ) stored,
  constraint news_articles_url_key_key unique (url_key)
);

create unique index if not exists news_articles_source_guid_key on public.news_articles (source_id, guid)
  where guid is not null;
create index if not exists news_articles_feed_idx on public.news_articles (published_at desc, id desc)
  where not hidden and story_id = id;
create index if not exists news_articles_category_feed_idx on public.news_articles (category, published_at desc, id desc)
  where not hidden and story_id = id;
create index if not exists news_articles_story_id_idx on public.news_articles (story_id);
create index if not exists news_articles_search_idx on public.news_articles using gin (search);
create index if not exists news_articles_fingerprint_trgm_idx on public.news_articles
  using gin (fingerprint extensions.gin_trgm_ops);
create index if not exists news_articles_is_sample_idx on public.news_articles (is_sample) where is_sample;

alter table public.news_articles enable row level security;
revoke all on table public.news_articles from anon, authenticated;
grant select on table public.news_articles to anon, authenticated;
-- An admin hides (or shows again) an article; nothing else is written through the API.
grant update (hidden) on table public.news_articles to authenticated;
grant all on table public.news_articles to service_role;

-- ---------------------------------------------------------------------------------------------------
-- The publications of data/news-sources.csv, each with its source noted. Enabled: where the network
-- cannot reach them, the fetch fails politely and the admin page says why.
-- ---------------------------------------------------------------------------------------------------

insert into public.news_sources (name, feed_url, category, origin) values
  ('Marijuana Moment', 'https://www.marijuanamoment.net/feed/', 'Policy',
   'data/news-sources.csv (public feed address of the publication)'),
  ('MJBizDaily', 'https://mjbizdaily.com/feed/', 'Business',
   'data/news-sources.csv (public feed address of the publication); note: may refuse automated clients (HTTP 403 seen)'),
  ('Cannabis Business Times', 'https://www.cannabisbusinesstimes.com/rss/', 'Business',
   'data/news-sources.csv (public feed address of the publication); note: verify: /rss.xml also seen'),
  ('New Cannabis Ventures', 'https://www.newcannabisventures.com/feed/', 'Markets',
   'data/news-sources.csv (public feed address of the publication)'),
  ('Leafly News', 'https://www.leafly.com/news/feed', 'Culture',
   'data/news-sources.csv (public feed address of the publication); note: verify'),
  ('High Times', 'https://hightimes.com/feed/', 'Culture',
   'data/news-sources.csv (public feed address of the publication)'),
  ('Green Market Report', 'https://www.greenmarketreport.com/feed/', 'Markets',
   'data/news-sources.csv (public feed address of the publication)'),
  ('Ganjapreneur', 'https://www.ganjapreneur.com/feed/', 'Business',
   'data/news-sources.csv (public feed address of the publication)'),
  ('Hemp Industry Daily', 'https://hempindustrydaily.com/feed/', 'Hemp',
   'data/news-sources.csv (public feed address of the publication)'),
  ('NORML', 'https://norml.org/feed/', 'Policy',
   'data/news-sources.csv (public feed address of the publication)')
on conflict on constraint news_sources_feed_url_key do nothing;

-- Admins manage sources through the API; a slip of a script must not add thousands.
select private.set_write_quota('public.news_sources', 30, 500, 20, 'news sources');
