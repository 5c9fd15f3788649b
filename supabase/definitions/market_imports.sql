-- Imports of daily closes (product §market-index, decision 128): the admin page and
-- `npm run market:import` send the parsed CSV rows here. Every row is checked; any error refuses the
-- whole file with row-level messages (line numbers count the header as line 1) and nothing is written.
-- Otherwise, with p_apply, the closes are written in this one transaction: a new (ticker, date) is
-- revision 1, a corrected close the next revision (the old one kept in market_close_revisions), the
-- demonstration closes go, and the equity indices are recomputed.

-- The checks are written inline (no helper functions): a function with its own search_path is called,
-- not inlined, and costs tens of microseconds a row at a million rows.
-- A formula cell is one starting with =, +, -, @, tab or carriage return (a spreadsheet would run it).
create or replace function public.market_import_closes(p_rows jsonb, p_apply boolean default false) returns jsonb
language plpgsql volatile security definer set search_path = ''
set statement_timeout = '120s'
as $$
declare
  v_rows integer;
  v_errors jsonb;
  v_error_count integer;
  v_new integer;
  v_revised integer;
  v_unchanged integer;
  v_samples integer := 0;
  v_result jsonb;
  v_slug text;
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

  create temp table if not exists market_import_rows (
    line integer primary key, ticker text, date date, close numeric(14, 4), currency text, source text
  ) on commit drop;
  truncate market_import_rows;

  with r as (
    select x.ord::integer + 1 as line,
           upper(btrim(x.ticker)) as ticker,
           btrim(x.date) as date_text,
           btrim(x.close) as close_text,
           coalesce(nullif(upper(btrim(x.currency)), ''), 'USD') as currency,
           btrim(x.source) as source
    from rows from (jsonb_to_recordset(p_rows) as (ticker text, date text, close text, currency text, source text))
           with ordinality as x(ticker, date, close, currency, source, ord)
  ),
  shaped as (
    select r.*, s.ticker as known, s.currency as security_currency,
           r.date_text ~ '^(19|2\d)\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$' as date_shape,
           r.close_text ~ '^\d{1,10}(\.\d{1,4})?$' as good_close,
           r.source ~ '^[=+\-@\t\r]' as source_formula,
           r.source ~ '<[/!?]?[A-Za-z]|<!--|&#?[A-Za-z0-9]+;' as source_markup
    from r left join public.market_securities s on s.ticker = r.ticker
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
  numbered as (select e.*, row_number() over (order by e.line, e.col) as n from errors e),
  summary as (
    select (select count(*) from r)::integer as total,
           (select count(*) from errors)::integer as error_count,
           coalesce((select jsonb_agg(jsonb_build_object('line', n.line, 'column', n.col, 'message', n.message)
                                      order by n.line, n.col)
                     from numbered n where n.n <= 1000), '[]'::jsonb) as errors
  ),
  staged as (
    insert into market_import_rows (line, ticker, date, close, currency, source)
    select c.line, c.ticker, c.date_text::date, c.close_text::numeric, c.currency, c.source
    from checked c
    where (select error_count from summary) = 0
    returning 1
  )
  select s.total, s.error_count, s.errors into v_rows, v_error_count, v_errors
  from summary s, (select count(*) from staged) x;

  if v_error_count > 0 then
    truncate market_import_rows;
    return jsonb_build_object('ok', false, 'applied', false, 'rows', v_rows, 'error_count', v_error_count,
                              'errors', v_errors);
  end if;

  select count(*) filter (where c.ticker is null),
         count(*) filter (where c.ticker is not null and c.close <> i.close),
         count(*) filter (where c.ticker is not null and c.close = i.close)
    into v_new, v_revised, v_unchanged
  from market_import_rows i
  left join public.market_closes c on c.ticker = i.ticker and c.date = i.date and not c.is_sample;

  v_result := jsonb_build_object('ok', true, 'applied', p_apply, 'rows', v_rows, 'error_count', 0,
                                 'errors', '[]'::jsonb, 'new', v_new, 'revised', v_revised, 'unchanged', v_unchanged);
  if not p_apply then
    truncate market_import_rows;
    return v_result;
  end if;

  -- Real closes replace the demonstration series (product §samples).
  delete from public.market_closes c where c.is_sample;
  get diagnostics v_samples = row_count;

  insert into public.market_closes as c (ticker, date, close, currency, source)
  select i.ticker, i.date, i.close, i.currency, i.source from market_import_rows i
  on conflict (ticker, date) do update
     set close = excluded.close, source = excluded.source, as_of = now(), revision = c.revision + 1
   where c.close <> excluded.close;
  truncate market_import_rows;

  for v_slug in select i.slug from public.market_indices i where i.kind = 'equity' order by i.slug loop
    perform private.market_store(v_slug);
  end loop;

  v_result := v_result || jsonb_build_object('samples_removed', v_samples);
  perform private.audit('market import closes', 'public.market_closes', null, null, v_result - 'errors');
  return v_result;
end
$$;
revoke all on function public.market_import_closes(jsonb, boolean) from public;
grant execute on function public.market_import_closes(jsonb, boolean) to authenticated, service_role;
