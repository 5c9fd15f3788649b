-- Indexes for the text anyone may search through the data API (issue 13, docs/decisions/092).
-- Without them one anonymous `product_comments?content=fts.zzz%20%26%20!qqq` over 40,000 comments
-- computed every comment's tsvector: 19 seconds on the embedded database, holding its only connection.
--
-- Full-text filters (`fts`, `plfts`, `phfts`, `wfts`) without a language search with the database's
-- default configuration, which the data API names in the SQL it generates (`to_tsvector('english',
-- content)`): the expression index is built with that same configuration, read here rather than
-- assumed. `like`/`ilike` filters are served by a trigram index (pg_trgm) when the pattern holds three
-- characters or more between its wildcards.
--
-- Only product comments: their read policy has no condition, so PostgreSQL may evaluate the filter's
-- operator inside an index scan. On a table whose read policy has one (admin_posts: published or
-- admin; scammer_reports: own, or published with access) the policy must be checked first, and since
-- `ilike` and `@@` are not leakproof no index could serve such a filter through the data API — see
-- the decision for what would. Safe to apply twice.

create extension if not exists pg_trgm with schema extensions;

do $$
begin
  execute format(
    'create index if not exists product_comments_content_fts_idx on public.product_comments '
    'using gin (to_tsvector(%L::regconfig, content))',
    current_setting('default_text_search_config')
  );
end
$$;

create index if not exists product_comments_content_trgm_idx
  on public.product_comments using gin (content extensions.gin_trgm_ops);
