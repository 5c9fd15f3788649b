-- Indexes for the text the data API lets people search (issue 13, docs/decisions/092). Without them
-- one anonymous `content=fts.zzz & !qqq` over 40,000 comments computed every comment's tsvector:
-- 19 seconds on the embedded database, holding its only connection.
--
-- Full-text filters (`fts`, `plfts`, `phfts`, `wfts`) without a language search with the database's
-- default configuration; the data API names it in the SQL it generates (`to_tsvector('english',
-- content)`), so these expression indexes are built with that same configuration, read here rather
-- than assumed. `like`/`ilike` filters with a leading wildcard are served by trigram indexes
-- (pg_trgm): patterns of three characters or more between wildcards use them.
--
-- What is indexed: the text anyone can read and filter (product comments, published posts) and the
-- scammer database's search fields (spec §2: "Search by name, business, location and contact
-- details"). Safe to apply twice.

create extension if not exists pg_trgm with schema extensions;

do $$
declare
  config text := current_setting('default_text_search_config');
  target record;
begin
  for target in select * from (values
    ('product_comments_content_fts_idx', 'product_comments', 'content'),
    ('admin_posts_title_fts_idx', 'admin_posts', 'title'),
    ('admin_posts_content_fts_idx', 'admin_posts', 'content')
  ) as t(index_name, table_name, column_name)
  loop
    execute format(
      'create index if not exists %I on public.%I using gin (to_tsvector(%L::regconfig, %I))',
      target.index_name, target.table_name, config, target.column_name
    );
  end loop;
end
$$;

create index if not exists product_comments_content_trgm_idx
  on public.product_comments using gin (content extensions.gin_trgm_ops);
create index if not exists admin_posts_title_trgm_idx
  on public.admin_posts using gin (title extensions.gin_trgm_ops);
create index if not exists admin_posts_content_trgm_idx
  on public.admin_posts using gin (content extensions.gin_trgm_ops);
create index if not exists scammer_reports_scammer_name_trgm_idx
  on public.scammer_reports using gin (scammer_name extensions.gin_trgm_ops);
create index if not exists scammer_reports_business_name_trgm_idx
  on public.scammer_reports using gin (business_name extensions.gin_trgm_ops);
create index if not exists scammer_reports_location_trgm_idx
  on public.scammer_reports using gin (location extensions.gin_trgm_ops);
create index if not exists scammer_reports_contact_info_trgm_idx
  on public.scammer_reports using gin (contact_info extensions.gin_trgm_ops);
