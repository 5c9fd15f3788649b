-- The Scammer Network's worded search, newest first, at any size (issue 40 part 4, decision 269). A
-- search found every report holding its words before it sorted them for a page of 20: the matches of a
-- common business word grow with the reports, and so did the search (6.5 s p95 among 20,000,000
-- reports against 21 ms among 200,000, bench/scale.ts). Here each published report's full-text entry
-- also holds the month and the year it was published in, so the search asks the index for the words in
-- the latest months first and reads only those reports; it widens the window only when a page is not
-- full (reports_read.sql).
-- Here, not in definitions/: the index depends on the function, which must not change under it.

-- The periods of a report's publication as lexemes of their own: ' m<months since year 0>' and
-- ' y<year>', in UTC. Each starts with a space, which no word a reader types can hold (the parser splits
-- words at spaces), so no search and no prefix ever matches them; the search adds them itself.
create or replace function private.scammer_report_periods(p_at timestamptz) returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select case when p_at is null then ''::pg_catalog.tsvector else pg_catalog.array_to_tsvector(array[
    ' m' || (pg_catalog.date_part('year', p_at at time zone 'UTC') * 12
      + pg_catalog.date_part('month', p_at at time zone 'UTC') - 1)::integer::text,
    ' y' || pg_catalog.date_part('year', p_at at time zone 'UTC')::integer::text]) end
$$;
revoke all on function private.scammer_report_periods(timestamptz) from public;
-- Computed as whoever writes a report (its index's expression), as news_fingerprint_pairs is.
grant execute on function private.scammer_report_periods(timestamptz) to anon, authenticated, service_role;

-- The words readers search and the periods, in one full-text index of the published reports: a search
-- for words in a window of months is one index scan, whose lists of words and of months are intersected
-- before any report is read. It replaces the words' own index.
create index if not exists scammer_reports_published_search_periods_idx on public.scammer_reports
  using gin ((to_tsvector('simple'::regconfig, search_text) || private.scammer_report_periods(reviewed_at)))
  where status = 'published';
drop index if exists public.scammer_reports_published_search_words_idx;
