-- Imports of daily closes (product §market-index, decision 128): the admin page and
-- `npm run market:import` send the parsed CSV rows here. Every row is checked; any error refuses the
-- whole file with row-level messages (line numbers count the header as line 1) and nothing is written.
-- Otherwise, with p_apply, the closes are written in this one transaction: a new (ticker, date) is
-- revision 1, a corrected close the next revision (the old one kept in market_close_revisions), the
-- demonstration closes go, and the equity indices are recomputed.

-- The rows arrive as JSON (the admin page, through the data API) or as one text array per column (the
-- CLI, the quote provider: much cheaper to pass than JSON); both are staged in the temporary table
-- market_import_input and checked there by set queries (decision 128, 144): one pass decides whether
-- any row is wrong; only then is the slower pass run that words each problem with its line.
-- The checks are written inline (no helper functions): a function with its own search_path is called,
-- not inlined, and costs tens of microseconds a row at a million rows.
-- A formula cell is one starting with =, +, -, @, tab or carriage return (a spreadsheet would run it).
create or replace function private.market_import_staged(p_apply boolean) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_rows integer;
  v_bad integer;
  v_duplicates boolean;
  v_errors jsonb;
  v_error_count integer;
  v_new integer;
  v_revised integer;
  v_unchanged integer;
  v_samples integer := 0;
  v_result jsonb;
  v_slug text;
begin
  analyze market_import_input;

  -- 1. One pass: is any row wrong? (the same rules as the worded pass below)
  select count(*)::integer,
         count(*) filter (where not (
           s.ticker is not null
           and i.currency = s.currency
           -- (case, not and: a cast must not see a value its pattern refused)
           and case when i.date_text ~ '^(19|2\d)\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$'
                    then case when substr(i.date_text, 9, 2)::integer <= extract(day from (
                                     make_date(substr(i.date_text, 1, 4)::integer, substr(i.date_text, 6, 2)::integer, 1)
                                     + interval '1 month - 1 day'))::integer
                              then i.date_text::date <= current_date else false end
                    else false end
           and case when i.close_text ~ '^\d{1,10}(\.\d{1,4})?$' then i.close_text::numeric > 0 else false end
           and coalesce(i.source <> '' and char_length(i.source) <= 500
                        and i.source !~ '^[=+\-@\t\r]'
                        and i.source !~ '<[/!?]?[A-Za-z]|<!--|&#?[A-Za-z0-9]+;', false)
         ))::integer
    into v_rows, v_bad
  from market_import_input i left join public.market_securities s on s.ticker = i.ticker;
  select exists (select 1 from market_import_input i group by i.ticker, i.date_text having count(*) > 1)
    into v_duplicates;

  -- 2. Only when something is wrong: each problem, worded, with its line
  if v_bad > 0 or v_duplicates then
    with shaped as (
      select r.line, r.ticker, r.date_text, r.close_text, r.currency, r.source,
             s.ticker as known, s.currency as security_currency,
             r.date_text ~ '^(19|2\d)\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$' as date_shape,
             r.close_text ~ '^\d{1,10}(\.\d{1,4})?$' as good_close,
             r.source ~ '^[=+\-@\t\r]' as source_formula,
             r.source ~ '<[/!?]?[A-Za-z]|<!--|&#?[A-Za-z0-9]+;' as source_markup
      from market_import_input r left join public.market_securities s on s.ticker = r.ticker
    ),
    checked as (
      select sh.*,
             case when sh.date_shape
                  then substr(sh.date_text, 9, 2)::integer <= extract(day from (
                         make_date(substr(sh.date_text, 1, 4)::integer, substr(sh.date_text, 6, 2)::integer, 1)
                         + interval '1 month - 1 day'))::integer
                  else false end as good_date
      from shaped sh
    ),
    errors as (
      select c.line, 'ticker' as col,
             case when coalesce(c.ticker, '') = '' then 'ticker is missing'
                  else 'unknown ticker "' || left(c.ticker, 20) || '" (not in the equity universe)' end as message
      from checked c where c.known is null
      union all
      select c.line, 'date', case when coalesce(c.date_text, '') = '' then 'date is missing'
                                  else 'bad date "' || left(c.date_text, 30) || '" (expected YYYY-MM-DD)' end
      from checked c where not coalesce(c.good_date, false)
      union all
      select c.line, 'date', 'date ' || c.date_text || ' is in the future'
      from checked c where case when c.good_date then c.date_text::date > current_date else false end
      union all
      select c.line, 'close', case when coalesce(c.close_text, '') = '' then 'close is missing'
                                   when c.close_text ~ '^-\s*\d' then 'negative price ' || left(c.close_text, 30)
                                   when c.close_text ~ '^[=+\-@\t\r]' then 'formulas are not accepted (cell starts with ' || left(c.close_text, 1) || ')'
                                   else 'close "' || left(c.close_text, 30) || '" is not a price (up to 4 decimals)' end
      from checked c where not coalesce(c.good_close, false)
      union all
      select c.line, 'close', 'a close must be above zero'
      from checked c where case when c.good_close then c.close_text::numeric = 0 else false end
      union all
      select c.line, 'currency', 'unit mismatch: ' || c.ticker || ' closes are in ' || c.security_currency
                                   || ', not ' || left(c.currency, 10)
      from checked c where c.known is not null and c.currency <> c.security_currency
      union all
      select c.line, 'source', case when coalesce(c.source, '') = '' then 'source is missing (every close names where it came from)'
                                    when c.source_formula then 'formulas are not accepted (cell starts with ' || left(c.source, 1) || ')'
                                    when c.source_markup then 'source may not contain markup'
                                    else 'source is longer than 500 characters' end
      from checked c where (coalesce(c.source, '') = '' or c.source_formula or c.source_markup or char_length(c.source) > 500)
      union all
      select d.line, 'date', 'duplicate: ' || d.ticker || ' ' || d.date_text || ' is also on line ' || d.first_line
      from (select c.line, c.ticker, c.date_text,
                   min(c.line) over (partition by c.ticker, c.date_text) as first_line
            from checked c where c.known is not null and c.good_date) d
      where d.line <> d.first_line
    ),
    numbered as (select e.*, row_number() over (order by e.line, e.col) as n from errors e)
    select (select count(*) from errors)::integer,
           coalesce((select jsonb_agg(jsonb_build_object('line', n.line, 'column', n.col, 'message', n.message)
                                      order by n.line, n.col)
                     from numbered n where n.n <= 1000), '[]'::jsonb)
      into v_error_count, v_errors;
    truncate market_import_input;
    return jsonb_build_object('ok', false, 'applied', false, 'rows', v_rows, 'error_count', v_error_count,
                              'errors', v_errors);
  end if;

  if not p_apply then
    select count(*) filter (where c.ticker is null),
           count(*) filter (where c.ticker is not null and c.close <> i.close_text::numeric(14, 4)),
           count(*) filter (where c.ticker is not null and c.close = i.close_text::numeric(14, 4))
      into v_new, v_revised, v_unchanged
    from market_import_input i
    left join public.market_closes c on c.ticker = i.ticker and c.date = i.date_text::date and not c.is_sample;
    truncate market_import_input;
    return jsonb_build_object('ok', true, 'applied', false, 'rows', v_rows, 'error_count', 0,
                              'errors', '[]'::jsonb, 'new', v_new, 'revised', v_revised, 'unchanged', v_unchanged);
  end if;

  -- Real closes replace the demonstration series (product §samples).
  delete from public.market_closes c where c.is_sample;
  get diagnostics v_samples = row_count;

  -- new (ticker, date): revision 1; a different close: the next revision (the trigger keeps the old
  -- one); the same close: untouched. xmax = 0 tells an inserted row from an updated one.
  with written as (
    insert into public.market_closes as c (ticker, date, close, currency, source)
    select i.ticker, i.date_text::date, i.close_text::numeric(14, 4), i.currency, i.source
    from market_import_input i
    on conflict (ticker, date) do update
       set close = excluded.close, source = excluded.source, as_of = now(), revision = c.revision + 1
     where c.close <> excluded.close
    returning c.xmax = 0 as inserted
  )
  select count(*) filter (where w.inserted)::integer, count(*) filter (where not w.inserted)::integer
    into v_new, v_revised
  from written w;
  v_unchanged := v_rows - v_new - v_revised;
  truncate market_import_input;

  for v_slug in select i.slug from public.market_indices i where i.kind = 'equity' order by i.slug loop
    perform private.market_store(v_slug);
  end loop;

  v_result := jsonb_build_object('ok', true, 'applied', true, 'rows', v_rows, 'error_count', 0,
                                 'errors', '[]'::jsonb, 'new', v_new, 'revised', v_revised,
                                 'unchanged', v_unchanged, 'samples_removed', v_samples);
  perform private.audit('market import closes', 'public.market_closes', null, null, v_result - 'errors');
  return v_result;
end
$$;
revoke all on function private.market_import_staged(boolean) from public;

create or replace function private.market_import_begin() returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  create temp table if not exists market_import_input (
    line integer, ticker text, date_text text, close_text text, currency text, source text
  ) on commit drop;
  truncate market_import_input;
end
$$;
revoke all on function private.market_import_begin() from public;

-- The admin page's call (through the data API): the parsed CSV rows as JSON objects.
create or replace function public.market_import_closes(p_rows jsonb, p_apply boolean default false) returns jsonb
language plpgsql volatile security definer set search_path = ''
set statement_timeout = '120s'
as $$
declare
  v_errors jsonb;
begin
  perform private.market_require_admin();
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'rows must be a JSON array of objects' using errcode = '22023';
  end if;

  -- every element must be an object with named columns (what jsonb_to_recordset reads)
  select coalesce(jsonb_agg(jsonb_build_object('line', t.ord + 1, 'column', 'row',
                                               'message', 'the row is not an object with named columns')
                            order by t.ord), '[]'::jsonb)
    into v_errors
  from jsonb_array_elements(p_rows) with ordinality as t(e, ord)
  where jsonb_typeof(t.e) <> 'object';
  if jsonb_array_length(v_errors) > 0 then
    return jsonb_build_object('ok', false, 'applied', false, 'rows', jsonb_array_length(p_rows),
                              'error_count', jsonb_array_length(v_errors), 'errors', v_errors);
  end if;

  perform private.market_import_begin();
  insert into market_import_input (line, ticker, date_text, close_text, currency, source)
  select x.ord::integer + 1, upper(btrim(x.ticker)), btrim(x.date), btrim(x.close),
         coalesce(nullif(upper(btrim(x.currency)), ''), 'USD'), btrim(x.source)
  from rows from (jsonb_to_recordset(p_rows) as (ticker text, date text, close text, currency text, source text))
         with ordinality as x(ticker, date, close, currency, source, ord);
  return private.market_import_staged(p_apply);
end
$$;
revoke all on function public.market_import_closes(jsonb, boolean) from public;
grant execute on function public.market_import_closes(jsonb, boolean) to authenticated, service_role;

-- The server's call (the CLI, the quote provider; no API role may call it): one text array per column,
-- element i of each being the row on line i + 1. A null currency array means USD throughout.
create or replace function private.market_import_close_columns(
  p_tickers text[], p_dates text[], p_closes text[], p_sources text[], p_currencies text[], p_apply boolean
) returns jsonb
language plpgsql volatile security definer set search_path = ''
set statement_timeout = '120s'
as $$
declare
  v_n integer := coalesce(cardinality(p_tickers), 0);
begin
  perform private.market_require_admin();
  if coalesce(cardinality(p_dates), 0) <> v_n or coalesce(cardinality(p_closes), 0) <> v_n
     or coalesce(cardinality(p_sources), 0) <> v_n
     or (p_currencies is not null and cardinality(p_currencies) <> v_n) then
    raise exception 'every column must have one value per row' using errcode = '22023';
  end if;
  perform private.market_import_begin();
  insert into market_import_input (line, ticker, date_text, close_text, currency, source)
  select x.ord::integer + 1, upper(btrim(x.ticker)), btrim(x.date), btrim(x.close),
         coalesce(nullif(upper(btrim(x.currency)), ''), 'USD'), btrim(x.source)
  from unnest(p_tickers, p_dates, p_closes, p_sources, coalesce(p_currencies, array_fill(null::text, array[v_n])))
         with ordinality as x(ticker, date, close, source, currency, ord);
  return private.market_import_staged(p_apply);
end
$$;
revoke all on function private.market_import_close_columns(text[], text[], text[], text[], text[], boolean) from public;

-- Imports of flower price points (product §market-index, decision 145): the admin page sends the parsed
-- CSV rows (the columns of the shipped flower-prices.csv: state, series, period, unit, value, statistic,
-- source, note). The same discipline as the closes: every row checked by set queries, any problem
-- refuses the whole file with its line, nothing written; otherwise a new (state, series, period) is
-- revision 1, a corrected value the next revision, an unchanged row untouched, and the flower indices
-- are recomputed in the same transaction (a changed index value becomes a new revision of its point).
-- A series keeps one unit: a row in another unit than the series' stored one (or than an earlier row
-- of the same series in the file) is a unit mismatch.
create or replace function public.market_import_flower_prices(p_rows jsonb, p_apply boolean default false) returns jsonb
language plpgsql volatile security definer set search_path = ''
set statement_timeout = '60s'
as $$
declare
  v_rows integer;
  v_errors jsonb;
  v_error_count integer;
  v_new integer;
  v_revised integer;
  v_unchanged integer;
  v_result jsonb;
  v_slug text;
begin
  perform private.market_require_admin();
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'rows must be a JSON array of objects' using errcode = '22023';
  end if;
  select coalesce(jsonb_agg(jsonb_build_object('line', t.ord + 1, 'column', 'row',
                                               'message', 'the row is not an object with named columns')
                            order by t.ord), '[]'::jsonb)
    into v_errors
  from jsonb_array_elements(p_rows) with ordinality as t(e, ord)
  where jsonb_typeof(t.e) <> 'object';
  if jsonb_array_length(v_errors) > 0 then
    return jsonb_build_object('ok', false, 'applied', false, 'rows', jsonb_array_length(p_rows),
                              'error_count', jsonb_array_length(v_errors), 'errors', v_errors);
  end if;

  create temp table if not exists market_flower_input (
    line integer, state text, series text, period_text text, unit text, value_text text,
    statistic text, source text, note text
  ) on commit drop;
  truncate market_flower_input;
  insert into market_flower_input
  select x.ord::integer + 1, upper(btrim(x.state)), btrim(x.series), btrim(x.period), btrim(x.unit),
         btrim(x.value), btrim(x.statistic), btrim(x.source), nullif(btrim(x.note), '')
  from rows from (jsonb_to_recordset(p_rows) as (state text, series text, period text, unit text, value text,
                                                 statistic text, source text, note text))
         with ordinality as x(state, series, period, unit, value, statistic, source, note, ord);

  with r as (
    select i.*,
           case when i.period_text ~ '^(19|2\d)\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$'
                then substr(i.period_text, 9, 2)::integer <= extract(day from (
                       make_date(substr(i.period_text, 1, 4)::integer, substr(i.period_text, 6, 2)::integer, 1)
                       + interval '1 month - 1 day'))::integer
                else false end as good_period,
           i.value_text ~ '^\d{1,10}(\.\d{1,4})?$' as good_value,
           -- the unit the series is stored in, or the first unit the file gives it
           coalesce((select o.unit from public.flower_price_observations o
                      where o.state = i.state and o.series = i.series limit 1),
                    first_value(i.unit) over (partition by i.state, i.series order by i.line)) as series_unit
    from market_flower_input i
  ),
  text_cells as (
    select r.line, c.col, c.val, c.max_len, c.required
    from r cross join lateral (values ('series', r.series, 200, true), ('statistic', r.statistic, 100, true),
                                      ('source', r.source, 500, true), ('note', r.note, 1000, false))
                                  as c(col, val, max_len, required)
  ),
  errors as (
    select r.line, 'state' as col,
           case when coalesce(r.state, '') = '' then 'state is missing'
                else 'state "' || left(r.state, 20) || '" is not a two-letter state code' end as message
    from r where coalesce(r.state, '') !~ '^[A-Z]{2}$'
    union all
    select r.line, 'period', case when coalesce(r.period_text, '') = '' then 'period is missing'
                                  else 'bad date "' || left(r.period_text, 30) || '" (expected YYYY-MM-DD, the first day of the period)' end
    from r where not r.good_period
    union all
    select r.line, 'period', 'period ' || r.period_text || ' is in the future'
    from r where case when r.good_period then r.period_text::date > current_date else false end
    union all
    select r.line, 'unit', case when coalesce(r.unit, '') = '' then 'unit is missing'
                                else 'unit "' || left(r.unit, 20) || '" is not one of USD/lb, USD/oz, USD/g' end
    from r where coalesce(r.unit, '') not in ('USD/lb', 'USD/oz', 'USD/g')
    union all
    select r.line, 'unit', 'unit mismatch: ' || r.state || ' "' || left(r.series, 60) || '" is reported in '
                           || r.series_unit || ', not ' || r.unit
    from r where r.unit in ('USD/lb', 'USD/oz', 'USD/g') and r.series_unit in ('USD/lb', 'USD/oz', 'USD/g')
             and r.unit <> r.series_unit
    union all
    select r.line, 'value', case when coalesce(r.value_text, '') = '' then 'value is missing'
                                 when r.value_text ~ '^-\s*\d' then 'negative price ' || left(r.value_text, 30)
                                 when r.value_text ~ '^[=+\-@\t\r]' then 'formulas are not accepted (cell starts with ' || left(r.value_text, 1) || ')'
                                 else 'value "' || left(r.value_text, 30) || '" is not a price (up to 4 decimals)' end
    from r where not coalesce(r.good_value, false)
    union all
    select r.line, 'value', 'a price must be above zero'
    from r where case when r.good_value then r.value_text::numeric = 0 else false end
    union all
    select t.line, t.col,
           case when coalesce(t.val, '') = '' then t.col || ' is missing'
                when t.val ~ '^[=+\-@\t\r]' then 'formulas are not accepted (cell starts with ' || left(t.val, 1) || ')'
                when t.val ~ '<[/!?]?[A-Za-z]|<!--|&#?[A-Za-z0-9]+;' then t.col || ' may not contain markup'
                else t.col || ' is longer than ' || t.max_len || ' characters' end
    from text_cells t
    where (t.required and coalesce(t.val, '') = '')
       or (t.val is not null and t.val <> '' and (t.val ~ '^[=+\-@\t\r]' or t.val ~ '<[/!?]?[A-Za-z]|<!--|&#?[A-Za-z0-9]+;'
                                                 or char_length(t.val) > t.max_len))
    union all
    select d.line, 'period', 'duplicate: ' || d.state || ' "' || left(d.series, 60) || '" ' || d.period_text
                             || ' is also on line ' || d.first_line
    from (select r.line, r.state, r.series, r.period_text,
                 min(r.line) over (partition by r.state, r.series, r.period_text) as first_line
          from r where r.good_period) d
    where d.line <> d.first_line
  ),
  numbered as (select e.*, row_number() over (order by e.line, e.col) as n from errors e)
  select (select count(*) from market_flower_input)::integer,
         (select count(*) from errors)::integer,
         coalesce((select jsonb_agg(jsonb_build_object('line', n.line, 'column', n.col, 'message', n.message)
                                    order by n.line, n.col)
                   from numbered n where n.n <= 1000), '[]'::jsonb)
    into v_rows, v_error_count, v_errors;

  if v_error_count > 0 then
    truncate market_flower_input;
    return jsonb_build_object('ok', false, 'applied', false, 'rows', v_rows, 'error_count', v_error_count,
                              'errors', v_errors);
  end if;

  select count(*) filter (where o.id is null)::integer,
         count(*) filter (where o.id is not null and o.value <> i.value_text::numeric(14, 4))::integer,
         count(*) filter (where o.id is not null and o.value = i.value_text::numeric(14, 4))::integer
    into v_new, v_revised, v_unchanged
  from market_flower_input i
  left join public.flower_price_observations o
    on o.state = i.state and o.series = i.series and o.period = i.period_text::date;
  v_result := jsonb_build_object('ok', true, 'applied', p_apply, 'rows', v_rows, 'error_count', 0,
                                 'errors', '[]'::jsonb, 'new', v_new, 'revised', v_revised, 'unchanged', v_unchanged);
  if not p_apply then
    truncate market_flower_input;
    return v_result;
  end if;

  insert into public.flower_price_observations as o (state, series, period, unit, value, statistic, source, note)
  select i.state, i.series, i.period_text::date, i.unit, i.value_text::numeric(14, 4), i.statistic, i.source, i.note
  from market_flower_input i
  on conflict (state, series, period) do update
     set value = excluded.value, statistic = excluded.statistic, source = excluded.source, note = excluded.note,
         revision = o.revision + 1, as_of = now()
   where o.value <> excluded.value;
  truncate market_flower_input;

  for v_slug in select i.slug from public.market_indices i where i.kind = 'flower' order by i.slug loop
    perform private.market_store(v_slug);
  end loop;
  perform private.audit('market import flower prices', 'public.flower_price_observations', null, null,
                        v_result - 'errors');
  return v_result;
end
$$;
revoke all on function public.market_import_flower_prices(jsonb, boolean) from public;
grant execute on function public.market_import_flower_prices(jsonb, boolean) to authenticated, service_role;
