-- The demonstration equity series (product §samples, §market-index; decision 105): until real closes
-- are imported, the equity index is computed from generated closes, each marked is_sample and sourced
-- "Demonstration series", so the API, chart, table and export label it. Never with DEMO_CONTENT=false;
-- the first real import removes it (market_import_closes).
create or replace function private.market_samples(load boolean) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if not load then
    if exists (select 1 from public.market_closes c where c.is_sample) then
      delete from public.market_closes c where c.is_sample;
      perform private.market_store('cannabis-equity');
    end if;
    return;
  end if;
  if exists (select 1 from public.market_closes) then
    return; -- real closes, or the samples already, are there
  end if;
  -- Two years of weekdays up to yesterday; deterministic wave-and-drift prices per security; one close
  -- in 97 left out so a carried close shows.
  insert into public.market_closes (ticker, date, close, currency, source, is_sample)
  select s.ticker, d.day,
         round((5 + s.n * 1.5) * exp(((d.k * (s.n % 5 - 2))::numeric / 4000)
                                     + 0.08 * sin(d.k / (9.0 + s.n) + s.n)::numeric), 4),
         'USD', 'Demonstration series: generated, not market data', true
  from (select ticker, row_number() over (order by ticker) as n from public.market_securities) s
  cross join (
    select g::date as day, row_number() over (order by g) as k
    from generate_series(current_date - 730, current_date - 1, interval '1 day') g
    where extract(isodow from g) < 6
  ) d
  where (d.k + s.n * 7) % 97 <> 0
  on conflict do nothing;
  perform private.market_store('cannabis-equity');
end
$$;
revoke all on function private.market_samples(boolean) from public;
