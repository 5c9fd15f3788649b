-- The admins' search for a published report to merge a duplicate into (decision 258): the scammer and
-- business names by trigram, so that public.admin_find_merge_targets counts a search's matches through
-- them. Whole-table indexes: the count reads them with the names' condition alone (decision 256).
create index if not exists scammer_reports_scammer_name_trgm_idx on public.scammer_reports
  using gin (scammer_name extensions.gin_trgm_ops);
create index if not exists scammer_reports_business_name_trgm_idx on public.scammer_reports
  using gin (business_name extensions.gin_trgm_ops);
