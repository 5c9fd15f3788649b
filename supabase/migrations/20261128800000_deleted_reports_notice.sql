-- A published report deleted outright leaves the same dated notice as one taken down (issue 32 part 4,
-- decision 239): readers who had it open or linked see "withdrawn on DATE after review", not a page
-- that never existed. Only the report's id, its brand (who may read the notice) and the date are kept:
-- nothing of its content, its reporter or the people it named. Filled by the delete trigger in
-- definitions/reports_read_corrections.sql; read through public.withdrawn_scammer_reports.
create table if not exists private.scammer_report_removals (
  report_id uuid primary key,
  brand_id uuid references public.brands (id) on delete set null,
  removed_at timestamptz not null default now()
);
comment on table private.scammer_report_removals is
  'Published reports deleted after review: id, brand and date only, for the notice in their place.';
-- A brand's deletion sets its notices' brand to null, and representatives read notices by brand.
create index if not exists scammer_report_removals_brand_idx on private.scammer_report_removals (brand_id);
