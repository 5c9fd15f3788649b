-- Reporters know the rules (issue 32 part 6, decision 200).
-- 1. The reporter confirms the report is true to their knowledge: when, stored with the report. The
--    rule (a member's new report needs it; nobody changes it afterwards) is the trigger in
--    definitions/reports_truth.sql. Reports filed before this change have none.
alter table public.scammer_reports add column if not exists truth_confirmed_at timestamptz;
comment on column public.scammer_reports.truth_confirmed_at is
  'When the reporter confirmed the report is true to the best of their knowledge (set by the database).';

-- 2. Names keep every character the reporter typed: quotes, apostrophes, ampersands, angle brackets
--    (`Dave "Top Shelf" Miller`, `O''Brien & Sons`). Names are shown as text, never rendered, so
--    markup in them is harmless; only control characters (never typed into a name) are refused.
alter table public.scammer_reports drop constraint if exists scammer_reports_scammer_name_sanitised;
alter table public.scammer_reports drop constraint if exists scammer_reports_business_name_sanitised;
do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'scammer_reports_scammer_name_characters') then
    alter table public.scammer_reports add constraint scammer_reports_scammer_name_characters
      check (scammer_name !~ '[[:cntrl:]]');
  end if;
  if not exists (select 1 from pg_constraint where conname = 'scammer_reports_business_name_characters') then
    alter table public.scammer_reports add constraint scammer_reports_business_name_characters
      check (business_name !~ '[[:cntrl:]]');
  end if;
end
$$;
