-- What readers of the Scammer Network see (issue 19, product §scammer-database, decision 123): published
-- reports, to members with access (active subscription, active trial, or admin) and nobody else, without
-- the reporter's identity and with every redacted field null. The view runs with its owner's rights
-- over public.scammer_reports (whose policy lets readers see only their own reports) and is a security
-- barrier, so no filter a caller adds is evaluated before the access check.

-- Every published report as readers see it, for the database's own functions: no access check here
-- (they check it), no reporter, redacted fields null, masked spans replaced in every free-text field,
-- the name and the contact details (reports_masks.sql, decisions 197, 209). Not reachable through the API.
create or replace view private.scammer_reports_public as
  select
    r.id,
    private.scammer_report_masked(r.id, 'scammer_name', r.scammer_name) as scammer_name,
    case when 'scammer_description' = any(r.redacted_fields) then null else private.scammer_report_masked(r.id, 'scammer_description', r.scammer_description) end as scammer_description,
    case when 'incident_details' = any(r.redacted_fields) then null else private.scammer_report_masked(r.id, 'incident_details', r.incident_details) end as incident_details,
    case when 'location' = any(r.redacted_fields) then null else private.scammer_report_masked(r.id, 'location', r.location) end as location,
    case when 'business_name' = any(r.redacted_fields) then null else private.scammer_report_masked(r.id, 'business_name', r.business_name) end as business_name,
    case when 'contact_info' = any(r.redacted_fields) then null else private.scammer_report_masked(r.id, 'contact_info', r.contact_info) end as contact_info,
    case when 'amount_scammed' = any(r.redacted_fields) then null else r.amount_scammed end as amount_scammed,
    case when 'date_of_incident' = any(r.redacted_fields) then null else r.date_of_incident end as date_of_incident,
    r.public_summary,
    r.redacted_fields,
    r.brand_id,
    -- "Reported by a member on …, reviewed on …": when, never who.
    r.created_at as reported_at,
    r.reviewed_at
  from public.scammer_reports r
  -- A duplicate merged into another report is no longer shown (decision 142).
  where r.status = 'published' and r.merged_into is null;
revoke all on table private.scammer_reports_public from public, anon, authenticated, service_role;

-- Whether the caller may read this report as a reader: it is published, not merged into another, and
-- the caller has access. For the evidence and reply policies (security definer: readers cannot read
-- the table).
create or replace function private.scammer_report_readable(report uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.scammer_reports r
    where r.id = scammer_report_readable.report and r.status = 'published' and r.merged_into is null
      -- A brand's approved representatives read the reports linked to their brand free (decision 201).
      and (public.has_scammer_access() or private.brands_is_representative(r.brand_id))
  )
$$;
revoke all on function private.scammer_report_readable(uuid) from public;
grant execute on function private.scammer_report_readable(uuid) to authenticated, service_role;

-- The same for the API: only members with access get rows, and a brand's approved representatives
-- the reports linked to their brand (decision 201).
create or replace view public.published_scammer_reports with (security_barrier = true) as
  select p.id, p.scammer_name, p.scammer_description, p.incident_details, p.location, p.business_name,
    p.contact_info, p.amount_scammed, p.date_of_incident, p.public_summary, p.redacted_fields, p.brand_id,
    p.reported_at, p.reviewed_at
  from private.scammer_reports_public p
  where (select public.has_scammer_access()) or private.brands_is_representative(p.brand_id);
comment on view public.published_scammer_reports is
  'Published scammer reports for members with access (and brand representatives, their brand''s): no reporter, redacted fields null.';
revoke all on table public.published_scammer_reports from public, anon, authenticated, service_role;
grant select on table public.published_scammer_reports to authenticated, service_role;

-- A search's words as the index of words by year holds them (decision 279): each exact word as itself in
-- any of `years` ('word y2026' | 'word y2025'). A prefix term ('word':*) stays as it is: it matches the
-- word in every year ('wordy y1999' begins with 'word'), so the caller keeps the window's months beside
-- it. Null when a word is longer than the index's 1,000 bytes (the caller then asks every year's words).
-- The words come from the search's own tsqueries, which hold only quoted words, `&`, `|`, brackets and
-- prefixes: read from their text, each quoted word ('' doubles a quote) with what follows it.
create or replace function private.scammer_report_words_in_years(words tsquery, years integer[]) returns tsquery
language sql immutable strict parallel safe set search_path = ''
as $$
  select case when bool_or(r.g[1] is not null and r.g[2] is null and octet_length(r.g[1]) > 1002) then null
    else string_agg(
      case
        when r.g[1] is null then r.g[3]
        when r.g[2] is not null then r.g[1] || r.g[2]
        else '(' || (select string_agg(left(r.g[1], -1) || ' y' || y::text || '''', ' | ') from unnest(years) y) || ')'
      end, '' order by r.n)::tsquery end
  from regexp_matches(words::text, $r$('(?:[^']|'')*')(:[*A-D]+)?|([^']+)$r$, 'g') with ordinality r(g, n)
$$;
revoke all on function private.scammer_report_words_in_years(tsquery, integer[]) from public;

-- The reports a worded search finds (decision 249): every word typed, or a close one, among the words of
-- the name, business, location and contact details; or a contact identifier however it is written.
-- `period` (decision 269), when given, keeps the worded matches to reports published in its months or
-- years (lexemes of private.scammer_report_periods, in the same full-text index as the words), so the
-- index intersects the words' lists with the window's before any report is read. `year_words`, when
-- given (decision 279), are the words in the window's years (scammer_report_words_in_years), asked of the
-- index of words by year with `period`: only those years' lists are read, not every report of each word.
-- Planned once per connection for any words (a generic plan, which walks the full-text index): planned
-- anew with each call's words, a prefix term (`word:*`) cost about 20 ms of planning against 4 ms of
-- searching among 200,000 reports (bench/scale.ts). The search around it (filters, order, page) is
-- planned with each call's values, as the searches without words need. Each index its own statement, so
-- each generic plan reads its own.
drop function if exists private.scammer_report_word_hits(tsquery, text);
drop function if exists private.scammer_report_word_hits(tsquery, text, tsquery);
create or replace function private.scammer_report_word_hits(words tsquery, query text, period tsquery default null,
  year_words tsquery default null)
returns setof uuid
language plpgsql stable set search_path = '' set plan_cache_mode = force_generic_plan
rows 100
as $$
begin
  if year_words is not null and period is not null then
    -- A window's words by year (no contact identifier: the windows are only for queries without one).
    return query
      select h.id from public.scammer_reports h
      where h.status = 'published'
        and (private.scammer_report_year_words(h.search_text, h.reviewed_at) || private.scammer_report_periods(h.reviewed_at))
          @@ (year_words && period)
        -- A masked span's words never find a report (decisions 197, 209), as below.
        and (not private.scammer_report_search_masked(h.id)
          or to_tsvector('simple'::regconfig, private.scammer_report_reader_search_text(h)) @@ words);
    return;
  end if;
  return query
    -- Typo-tolerant: every word typed, or a close one, among the words of the name, business,
    -- location and contact details.
    select h.id from public.scammer_reports h
    where h.status = 'published'
      and (to_tsvector('simple'::regconfig, h.search_text) || private.scammer_report_periods(h.reviewed_at))
        @@ coalesce(words && period, words)
      -- A masked span's words never find a report (decisions 197, 209): then the text readers see
      -- must match, so a reader cannot confirm a masked name or number by searching for it.
      and (not private.scammer_report_search_masked(h.id)
        or to_tsvector('simple'::regconfig, private.scammer_report_reader_search_text(h)) @@ words)
    union
    -- A phone, email, website or handle however it is written (decision 124), unless redacted; the
    -- identifiers come from the contact details as readers see them (masked spans left out).
    -- `query` is null when the search knows it holds none (decision 277): the branch is then not run.
    select i.report_id from private.query_identifiers(scammer_report_word_hits.query) qi
    join private.scammer_report_identifiers i on i.kind = qi.kind and i.value = qi.value
    join public.scammer_reports h on h.id = i.report_id
    where scammer_report_word_hits.query is not null
      and h.status = 'published' and not ('contact_info' = any(h.redacted_fields));
end
$$;
revoke all on function private.scammer_report_word_hits(tsquery, text, tsquery, tsquery) from public;

-- Search (product §scammer-database): typo-tolerant over the name, business, location and contact
-- details (each word typed, or a close one from the vocabulary by pg_trgm similarity, in the
-- redaction-aware search_text), or by a contact identifier
-- written any way (reports_identifiers.sql), filtered by incident date,
-- amount range and location, newest or largest amount first; or the reports linked to one brand
-- (`brand`, its id: a brand page's "Read the reports", decision 196). Members without access get an error
-- (42501), never an empty answer that looks like "no scammer by that name".
drop function if exists public.search_scammer_reports(text, text, numeric, numeric, date, date, text, integer, integer);
create or replace function public.search_scammer_reports(
  query text default null,
  location text default null,
  amount_min numeric default null,
  amount_max numeric default null,
  incident_from date default null,
  incident_to date default null,
  sort text default 'newest',
  result_limit integer default 20,
  result_offset integer default 0,
  brand uuid default null
) returns setof public.published_scammer_reports
language plpgsql stable security definer set search_path = ''
as $$
declare
  q text := nullif(lower(btrim(search_scammer_reports.query)), '');
  place text := nullif(lower(btrim(search_scammer_reports.location)), '');
  pattern text := private.contains_pattern(place);
  words tsquery;
  part tsquery;
  token text;
  close_word text;
  completions text[];
  completion text;
  latest timestamptz;
  latest_month integer;
  window_months integer;
  window_start timestamptz;
  period tsquery;
  -- The window's years, and its words in them for the index of words by year, used when the published
  -- reports span more years than the window's years squared (decision 279).
  years integer[];
  year_words tsquery;
  span_years integer;
  page_ids uuid[];
  -- The matches of the last window searched, and its months (decision 276).
  found_before integer;
  months_before integer;
  -- Whether the query holds a contact identifier, found once (decision 277).
  has_identifiers boolean;
begin
  -- A brand's approved representative lists the reports linked to their brand (decision 201).
  if not public.has_scammer_access()
    and not (search_scammer_reports.brand is not null and private.brands_is_representative(search_scammer_reports.brand)) then
    raise exception using errcode = 'insufficient_privilege',
      message = 'The Scammer Network needs a subscription, an active trial or an admin account.';
  end if;
  if sort not in ('newest', 'amount', 'relevance') then
    raise exception using errcode = 'invalid_parameter_value', message = 'sort is newest, amount or relevance.';
  end if;
  if char_length(q) > 200 or char_length(place) > 200 then
    raise exception using errcode = 'invalid_parameter_value', message = 'Search text can be at most 200 characters.';
  end if;
  if result_limit is null or result_limit not between 1 and 100 or result_offset is null or result_offset not between 0 and 10000 then
    raise exception using errcode = 'invalid_parameter_value', message = 'result_limit is 1 to 100, result_offset 0 to 10000.';
  end if;
  -- Without a query, each sort its own statement, so the walk follows an index (newest, or amount).
  -- A place is looked for in the stored location first (its statistics tell the planner how many
  -- reports match, and it costs nothing), and in the text readers see only where that differs (a
  -- redacted or masked field). Checked only as readers see it, the planner took the place for a rare
  -- one and sorted every report in the amount range, masking each location on the way: 359 ms among
  -- 200,000 reports (bench/scale.ts), 2.6 ms walking the index.
  if q is null and sort = 'amount' then
    return query
      select p.* from private.scammer_reports_public p
      join public.scammer_reports r on r.id = p.id
      where (place is null or (r.location ilike pattern and (
          not ('location' = any(r.redacted_fields) or private.scammer_report_search_masked(p.id))
          or lower(p.location) like pattern)))
        and (amount_min is null or p.amount_scammed >= amount_min)
        and (amount_max is null or p.amount_scammed <= amount_max)
        and (incident_from is null or p.date_of_incident >= incident_from)
        and (incident_to is null or p.date_of_incident <= incident_to)
        and (search_scammer_reports.brand is null or p.brand_id = search_scammer_reports.brand)
      order by p.amount_scammed desc nulls last, p.reviewed_at desc, p.id
      limit result_limit offset result_offset;
    return;
  elsif q is null then
    return query
      select p.* from private.scammer_reports_public p
      join public.scammer_reports r on r.id = p.id
      where (place is null or (r.location ilike pattern and (
          not ('location' = any(r.redacted_fields) or private.scammer_report_search_masked(p.id))
          or lower(p.location) like pattern)))
        and (amount_min is null or p.amount_scammed >= amount_min)
        and (amount_max is null or p.amount_scammed <= amount_max)
        and (incident_from is null or p.date_of_incident >= incident_from)
        and (incident_to is null or p.date_of_incident <= incident_to)
        and (search_scammer_reports.brand is null or p.brand_id = search_scammer_reports.brand)
      order by p.reviewed_at desc, p.id
      limit result_limit offset result_offset;
    return;
  end if;
  -- Each word typed (up to 8) — itself, a word it begins, or a close word in the vocabulary (the 16
  -- closest by pg_trgm similarity ≥ 0.3, then fewest letters changed, and every word ranked as the
  -- 16th, up to 32: decision 274); all words must match.
  for token in
    select t.lexeme from unnest(to_tsvector('simple'::regconfig, q)) t order by t.positions[1] limit 8
  loop
    -- A word of letters also as the start of a longer word ("hi" finds "high", "deals" finds
    -- deals7@gmail.com); numbers, emails and websites exactly (a prefix "1" would match every number
    -- starting with 1). The words it begins are looked up among the words readers can see (decision
    -- 251) and searched as exact words, which the full-text index skips through; as a prefix term it
    -- reads every report with a word so starting. Only a word that begins more than 64 words stays a
    -- prefix term.
    part := plainto_tsquery('simple'::regconfig, token);
    if token ~ '^[[:alpha:]]{2,100}$' then
      completions := array(
        select l.lexeme from private.scammer_report_lexemes l
        -- The words starting with the token, in byte order: from it up to its last letter's successor.
        where l.lexeme >= (token collate "C")
          and l.lexeme < ((left(token, -1) || chr(ascii(right(token, 1)) + 1)) collate "C")
        order by l.lexeme
        limit 65);
      if cardinality(completions) > 64 then
        part := to_tsquery('simple'::regconfig, '''' || token || ''':*');
      else
        foreach completion in array completions loop
          if completion <> token then
            part := part operator(pg_catalog.||) private.exact_lexeme(completion);
          end if;
        end loop;
      end if;
    end if;
    if token ~ '^[[:alpha:]]{3,100}$' then
      for close_word in
        -- Only words within the threshold (`%`, pg_trgm's default 0.3) are ranked: the GIN index finds
        -- them in about 3 ms among 63,000 words, where walking a GiST index nearest-first took 35 ms
        -- and its `%` 12–18 ms (bench/scale.ts at 10×; decision 274).
        select private.close_words(token, array(
          select w.word from private.scammer_report_words w where w.word operator(extensions.%) token), 16, 32)
      loop
        part := part operator(pg_catalog.||) plainto_tsquery('simple'::regconfig, close_word);
      end loop;
    end if;
    words := case when words is null then part else words operator(pg_catalog.&&) part end;
  end loop;
  words := coalesce(words, plainto_tsquery('simple'::regconfig, ''));
  -- Whether it holds a contact identifier, asked once: its regular expressions cost 1.2–1.5 ms, which
  -- each window of months paid again (decision 277).
  has_identifiers := exists (select 1 from private.query_identifiers(search_scammer_reports.query));
  -- Newest first, the latest months first (decision 269): the words are looked for among the reports
  -- published in the last 3, then 12 months, then 5 years (the months and years of the newest report,
  -- in UTC), and then among all (window 0). A window is every report published since its start, so once
  -- its matches fill the page — offset and limit — with the page's oldest published in it, that page is
  -- the search's; otherwise the next window. A common word fills its page in the first window, at a
  -- cost that does not grow with the reports. A window reads its years' words only, from the index of
  -- words by year (decision 279): a rare word's older reports are not walked. The other sorts search
  -- all at once, as does a query with a contact identifier (a phone, email, website or handle: matched
  -- through the identifiers, which know no months) or without a word (`words` would then match every
  -- report of the window).
  if sort = 'newest' and numnode(words) > 0 and not has_identifiers then
    -- The newest published report (nulls sort first: a report without a date means all at once).
    select r.reviewed_at into latest from public.scammer_reports r
    where r.status = 'published' order by r.reviewed_at desc nulls first limit 1;
  end if;
  if latest is not null then
    latest_month := (date_part('year', latest at time zone 'UTC') * 12 + date_part('month', latest at time zone 'UTC') - 1)::integer;
    -- The calendar years from the oldest published report to the newest (the index's oldest entry).
    select latest_month / 12 - date_part('year', min(r.reviewed_at) at time zone 'UTC')::integer + 1 into span_years
    from public.scammer_reports r where r.status = 'published';
  end if;
  foreach window_months in array case when latest is null then array[0] else array[3, 12, 60, 0] end loop
    -- A window is searched only if the last one searched, at the rate its matches came per month, would
    -- fill the page in it (decision 276): a page of 20 with one match in the last 3 months skips the
    -- year (4 expected) for the five years (20 expected) — each window reads the words' posting lists
    -- again (at 10× the bench's typo'd names, median 30.0 → 15.5 ms for a page of 100). No match counts
    -- as one (decision 278): it says the matches come at less than one a window, not none, and every
    -- report means reading every match. The windows only ever end a search early; the page is the same
    -- whichever ran.
    if months_before > 0 and window_months > 0
      and greatest(found_before, 1) * window_months < (result_limit + result_offset) * months_before then
      continue;
    end if;
    if window_months = 0 then
      period := null;
    elsif window_months < 12 * 5 then
      period := (select string_agg(quote_literal(' m' || (latest_month - k)::text), ' | ')::tsquery
                 from generate_series(0, window_months - 1) k);
      window_start := make_timestamptz((latest_month - window_months + 1) / 12, (latest_month - window_months + 1) % 12 + 1, 1, 0, 0, 0, 'UTC');
      -- The years the months fall in (two, when the window crosses a new year).
      years := array(select distinct (latest_month - k) / 12 from generate_series(0, window_months - 1) k);
    else
      period := (select string_agg(quote_literal(' y' || (latest_month / 12 - k)::text), ' | ')::tsquery
                 from generate_series(0, window_months / 12 - 1) k);
      window_start := make_timestamptz(latest_month / 12 - window_months / 12 + 1, 1, 1, 0, 0, 0, 'UTC');
      years := array(select latest_month / 12 - k from generate_series(0, window_months / 12 - 1) k);
    end if;
    -- Asked by year, a window reads its years' share of the words' reports, but each word once for each
    -- of its years, and the index checks every report it reads against every word asked: about k × k /
    -- span of the words' own index's work, for k years of a span (decision 279). So by year only where
    -- that is less: at the bench's size (one year) never, at 10× (four years) the windows of one year,
    -- at 100× (38 years) all. Asked by year in every window, a typo'd name at 10× took 107 ms p95
    -- against 38 (its five years' window: 5 × 5 / 4).
    year_words := case when window_months > 0 and cardinality(years) * cardinality(years) < span_years
      then private.scammer_report_words_in_years(words, years) end;
    page_ids := array(
      select p.id from private.scammer_report_word_hits(words,
          case when has_identifiers then search_scammer_reports.query end, period, year_words) w(id)
      join private.scammer_reports_public p on p.id = w.id
      where (place is null or lower(p.location) like pattern)
        and (amount_min is null or p.amount_scammed >= amount_min)
        and (amount_max is null or p.amount_scammed <= amount_max)
        and (incident_from is null or p.date_of_incident >= incident_from)
        and (incident_to is null or p.date_of_incident <= incident_to)
        and (search_scammer_reports.brand is null or p.brand_id = search_scammer_reports.brand)
      order by
        -- Relevance over what readers see, so the order says nothing about a masked span either.
        -- (Its row read only for this sort.)
        case when sort = 'relevance' then extensions.word_similarity(q,
          (select private.scammer_report_reader_search_text(r) from public.scammer_reports r where r.id = p.id)) end
          desc nulls last,
        case when sort = 'amount' then p.amount_scammed end desc nulls last,
        p.reviewed_at desc, p.id
      limit result_limit + result_offset);
    -- Newest first, the page's last report is its oldest.
    exit when window_months = 0
      or (cardinality(page_ids) = result_limit + result_offset
        and (select r.reviewed_at from public.scammer_reports r where r.id = page_ids[cardinality(page_ids)]) >= window_start);
    found_before := cardinality(page_ids);
    months_before := window_months;
  end loop;
  return query
    select p.* from unnest(page_ids[result_offset + 1:]) with ordinality m(id, n)
    join private.scammer_reports_public p on p.id = m.id
    order by m.n;
end
$$;
revoke all on function public.search_scammer_reports(text, text, numeric, numeric, date, date, text, integer, integer, uuid) from public;
grant execute on function public.search_scammer_reports(text, text, numeric, numeric, date, date, text, integer, integer, uuid)
  to authenticated, service_role;
comment on function public.search_scammer_reports(text, text, numeric, numeric, date, date, text, integer, integer, uuid) is
  'Members with access: published scammer reports matching a (typo-tolerant) search and filters, or linked to a brand.';
