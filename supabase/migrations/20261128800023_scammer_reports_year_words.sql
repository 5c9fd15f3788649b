-- The Scammer Network's worded search by windows of months reads a window's words, not every year's
-- (issue 40 part 4, decision 279). Asked for its words together with a window's months (decision 269),
-- the full-text index still walked each word's whole list — every report of the word, however old — and
-- checked it against the months: a typo'd name, whose typed words each stand for up to 32 close words,
-- took 49–69 ms a window among 20,000,000 reports (bench/scale.ts at 100×), for 2 and 41 matches.
-- Here each published report's words are also indexed with the year it was published in ('word y2026'),
-- so a window's search reads only the lists of its years.
-- Here, not in definitions/: the index depends on the function, which must not change under it.

-- Each word of a report's searchable text with the year of its publication (UTC), as lexemes of their
-- own: '<word> y<year>'. A space separates them, which no typed word holds (the parser splits words at
-- spaces), so no typed word, prefix or close word matches one unless the search adds the year itself.
-- Words of more than 1,000 bytes are left out (with the year a lexeme could pass the 2,046 bytes a
-- lexeme may hold); the search asks for such a word among every report (reports_read.sql).
create or replace function private.scammer_report_year_words(p_text text, p_at timestamptz) returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select case when p_at is null then ''::pg_catalog.tsvector else pg_catalog.array_to_tsvector(array(
    select t.lexeme || ' y' || pg_catalog.date_part('year', p_at at time zone 'UTC')::integer::text
    from pg_catalog.unnest(pg_catalog.to_tsvector('simple'::regconfig, coalesce(p_text, ''))) t
    where pg_catalog.octet_length(t.lexeme) <= 1000)) end
$$;
revoke all on function private.scammer_report_year_words(text, timestamptz) from public;
-- Computed as whoever writes a report (its index's expression), as scammer_report_periods is.
grant execute on function private.scammer_report_year_words(text, timestamptz) to anon, authenticated, service_role;

-- The words by year and the periods, in one full-text index of the published reports: a window's search
-- is one index scan of its years' word lists, intersected with its months'. The index of the words
-- without years (20261128800018) stays, for the searches of every report.
create index if not exists scammer_reports_published_year_words_idx on public.scammer_reports
  using gin ((private.scammer_report_year_words(search_text, reviewed_at) || private.scammer_report_periods(reviewed_at)))
  where status = 'published';
