-- Market index maths (product §market-index, decision 127). Everything an index value is computed from
-- is in the database, and these functions are the only computation: the stored points are what
-- private.market_levels returns, so recomputing gives the stored values exactly (market_verify).
-- Numbers are PostgreSQL numeric (exact decimal); every published level is rounded to 6 decimals and
-- chained from the rounded level, so anyone can redo the arithmetic from the published figures.

-- Flower price composite (decision 205): a chain-linked index. Per state and calendar quarter the
-- latest observation in that quarter. A state's quarterly point is *linked* when the state has an
-- earlier quarterly point (its last one, however many quarters back: a gap is bridged, and the whole
-- change since that point counts in this quarter) in the same series, unit and statistic; its relative
-- change is r = value / that previous value. A state's first point, or a point whose unit or statistic
-- differs from the state's previous point (Oregon switching median <-> average), starts a new link and
-- does not move the index. L(first quarter) = base_value; L(q) = round(L(q-1) x the equally weighted
-- arithmetic mean of r over the linked states of q, 6 decimals), each quarter chained from the rounded
-- level. A quarter with no linked state keeps the previous level and is marked carried.
-- What a flower price point is (decision 206): "<regulator> figure as reported by <publication>", or
-- "<regulator> figure, from its own publication: <source>" when the regulator's release is the source;
-- the CSV's "(OLCC data)" tags are folded into the regulator's name. The page labels observations with
-- the same rule (observationLabel in web/src/features/market/market-data.ts; market-flower-chain.test.ts
-- compares the two on every shipped row).
create or replace function private.market_flower_label(p_state text, p_source text) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select case
    when r.regulator is null then p_source
    when starts_with(p_source, regexp_replace(r.regulator, ' \(.*\)$', ''))
      then r.regulator || ' figure, from its own publication: ' || p_source
    else r.regulator || ' figure as reported by '
      || regexp_replace(regexp_replace(p_source, ' \((OLCC|CRA|CCC|IDFPR) data\)', ''),
                        '\((OLCC|CRA|CCC|IDFPR) data; ', '(')
  end
  from (select case p_state
      when 'CO' then 'Colorado Department of Revenue'
      when 'OR' then 'Oregon Liquor and Cannabis Commission (OLCC)'
      when 'MI' then 'Michigan Cannabis Regulatory Agency (CRA)'
      when 'MA' then 'Massachusetts Cannabis Control Commission (CCC)'
      when 'IL' then 'Illinois Department of Financial and Professional Regulation (IDFPR)'
    end as regulator) r
$$;
revoke all on function private.market_flower_label(text, text) from public;

create or replace function private.market_flower_levels(p_slug text)
returns table (date date, value numeric, carried boolean, source text, detail text)
language sql stable set search_path = ''
as $$
  with recursive
  idx as (
    select i.base_value from public.market_indices i where i.slug = p_slug and i.kind = 'flower'
  ),
  q as (
    select o.state, date_trunc('quarter', o.period)::date as quarter,
           (array_agg(o.value order by o.period desc))[1] as value,
           (array_agg(o.period order by o.period desc))[1] as period,
           (array_agg(o.unit order by o.period desc))[1] as unit,
           (array_agg(o.statistic order by o.period desc))[1] as statistic,
           (array_agg(o.series order by o.period desc))[1] as series,
           (array_agg(o.source order by o.period desc))[1] as source
    from public.flower_price_observations o
    where exists (select 1 from idx)
    group by o.state, date_trunc('quarter', o.period)
  ),
  prev as (
    select q.*,
           lag(q.value) over w as prev_value,
           lag(q.quarter) over w as prev_quarter,
           lag(q.unit) over w as prev_unit,
           lag(q.statistic) over w as prev_statistic,
           lag(q.series) over w as prev_series
    from q window w as (partition by q.state order by q.quarter)
  ),
  linked as (
    select p.*,
           p.prev_value is not null and p.unit = p.prev_unit and p.statistic = p.prev_statistic
             and p.series = p.prev_series as is_linked
    from prev p
  ),
  agg as (
    select l.quarter,
           avg(l.value / l.prev_value) filter (where l.is_linked) as a,
           string_agg(l.state || ' ' || to_char(l.period, 'YYYY-MM') || ' ' || l.value::text || ' ' || l.unit
                      || ' ' || l.statistic || ': ' || private.market_flower_label(l.state, l.source), '; '
                      order by l.state) as src,
           string_agg(l.state || ' ' || l.value::text || '/' || l.prev_value::text, ', ' order by l.state)
             filter (where l.is_linked) as contributing,
           string_agg(l.state || case when l.prev_value is null then ' (first point)'
                                      else ' (' || l.prev_statistic || ' -> ' || l.statistic || ', linked)' end,
                      ', ' order by l.state) filter (where not l.is_linked) as not_compared,
           count(*) filter (where l.is_linked) as n
    from linked l
    group by l.quarter
  ),
  quarters as (
    select g::date as quarter, row_number() over (order by g) as k
    from generate_series((select min(q.quarter) from q), (select max(q.quarter) from q), interval '3 months') g
  ),
  joined as (
    select qs.quarter, qs.k, agg.a, agg.src, agg.contributing, agg.not_compared, agg.n,
           agg.quarter is not null as reported
    from quarters qs left join agg using (quarter)
  ),
  levels (k, level) as (
    select 1::bigint, (select i.base_value::numeric from idx i)
    union all
    select l.k + 1, round(l.level * coalesce(j.a, 1), 6)
    from levels l join joined j on j.k = l.k + 1
  )
  select j.quarter,
         round(l.level, 6),
         j.k > 1 and j.a is null,
         case when not j.reported then 'No state reported a price this quarter; the level is unchanged.'
              else j.src end,
         case when j.k = 1 then 'base; first points: ' || coalesce(j.not_compared, '')
              when not j.reported then 'carried: no state reported'
              when j.a is null then 'carried: no state comparable with its previous point; not compared: ' || j.not_compared
              else 'contributing: ' || j.contributing || ' (' || j.n || ' of ' || (select count(distinct q.state) from q)
                   || ' states)' || coalesce('; not compared: ' || j.not_compared, '') end
  from joined j join levels l using (k)
$$;
revoke all on function private.market_flower_levels(text) from public;

-- Equal-weighted equity index (decision 127). Trading days are the days with at least one close of a
-- security the index ever holds. Rebalance days: the first day, the first trading day of each calendar
-- quarter, and any day the constituents change (effective_from, exclusive effective_to). At the close of
-- a rebalance day R the index holds, for each constituent i effective on R with a price, shares
-- s_i = L(R) / (N · P_i(R)) — i.e. equal value, with the divisor folded into the shares — so
-- L(t) = Σ s_i · P_i(t) = L(R) · mean_i(P_i(t) / P_i(R)) for R < t ≤ the next rebalance day: the level on a
-- rebalance day is computed with the old holdings, so neither rebalances nor constituent changes move
-- it. A missing close carries the security's previous close (the point is marked carried and says
-- which). L(first day) = base_value.
create or replace function private.market_equity_levels(p_slug text)
returns table (date date, value numeric, carried boolean, source text, detail text)
language sql stable set search_path = ''
as $$
  with recursive
  idx as (
    select i.base_value, i.base_date from public.market_indices i where i.slug = p_slug and i.kind = 'equity'
  ),
  members as (
    select m.ticker, m.effective_from, m.effective_to from public.market_constituents m
    where m.index_slug = p_slug and exists (select 1 from idx)
  ),
  tickers as (select distinct m.ticker from members m),
  -- The constituents' closes from the base date on, read once: the index's days are their dates
  -- (earlier closes never meet a day of the grid below).
  index_closes as materialized (
    select c.ticker, c.date, c.close, c.source from public.market_closes c
    where c.ticker in (select t.ticker from tickers t)
      and c.date >= coalesce((select i.base_date from idx i), '-infinity'::date)
  ),
  days as (
    select distinct c.date from index_closes c
  ),
  numbered as (
    select d.date, lag(d.date) over (order by d.date) as prev from days d
  ),
  flags as (
    select nb.date,
           nb.prev is null
           or date_trunc('quarter', nb.date) <> date_trunc('quarter', nb.prev)
           or exists (select 1 from members m
                      where (m.effective_from > nb.prev and m.effective_from <= nb.date)
                         or (m.effective_to > nb.prev and m.effective_to <= nb.date)) as is_rebalance
    from numbered nb
  ),
  -- the period a day's level belongs to: the number of rebalance days strictly before it (a
  -- rebalance day's own level still uses the holdings of the period before)
  day_periods as (
    select f.date,
           count(*) filter (where f.is_rebalance)
             over (order by f.date rows between unbounded preceding and 1 preceding) as p
    from flags f
  ),
  periods as (
    select f.date as start_date, row_number() over (order by f.date) as p,
           lead(f.date) over (order by f.date) as end_date
    from flags f where f.is_rebalance
  ),
  grid as (
    select t.ticker, nb.date, c.close, c.source,
           count(c.close) over (partition by t.ticker order by nb.date) as grp
    from tickers t cross join days nb
    left join index_closes c on c.ticker = t.ticker and c.date = nb.date
  ),
  prices as (
    select g.ticker, g.date, g.close is null as carried,
           max(g.close) over (partition by g.ticker, g.grp) as price,
           max(g.source) over (partition by g.ticker, g.grp) as source,
           min(g.date) over (partition by g.ticker, g.grp) as price_date
    from grid g
  ),
  period_members as (
    select distinct pe.p, pr.ticker, pr.price as ref_price, pr.source
    from periods pe
    join members m on m.effective_from <= pe.start_date and (m.effective_to is null or pe.start_date < m.effective_to)
    join prices pr on pr.ticker = m.ticker and pr.date = pe.start_date
    where pr.price is not null
  ),
  -- each price with the period its day belongs to, first (joining the members by ticker alone would
  -- pair every price with every period)
  priced_days as materialized (
    select pr.*, dp.p from prices pr join day_periods dp on dp.date = pr.date where dp.p >= 1
  ),
  day_ratios as (
    select pr.p, pr.date,
           avg(pr.price / pm.ref_price) as a,
           bool_or(pr.carried) as carried,
           count(*) as n,
           string_agg(distinct pr.source, '; ') as sources,
           string_agg(case when pr.carried then pm.ticker || ' ' || to_char(pr.price_date, 'YYYY-MM-DD') end, ', '
                      order by pm.ticker) as carried_list
    from priced_days pr
    join period_members pm on pm.p = pr.p and pm.ticker = pr.ticker
    group by pr.p, pr.date
  ),
  levels (p, level) as (
    select 1::bigint, (select i.base_value::numeric from idx i)
    union all
    select l.p + 1, round(l.level * dr.a, 6)
    from levels l
    join periods pe on pe.p = l.p
    join day_ratios dr on dr.p = l.p and dr.date = pe.end_date
  )
  select pe.start_date, (select i.base_value from idx i), false,
         'Base: closes of ' || (select count(*) from period_members pm where pm.p = 1) || ' constituents on '
           || to_char(pe.start_date, 'YYYY-MM-DD') || ' ('
           || (select string_agg(distinct pm.source, '; ') from period_members pm where pm.p = 1) || ').',
         'base value'
  from periods pe where pe.p = 1 and exists (select 1 from period_members pm where pm.p = 1)
  union all
  select dr.date, round(l.level * dr.a, 6), dr.carried,
         'Daily closes of ' || dr.n || ' constituents (' || dr.sources || ').',
         case when dr.carried then 'carried closes: ' || dr.carried_list end
  from day_ratios dr join levels l on l.p = dr.p
$$;
revoke all on function private.market_equity_levels(text) from public;

create or replace function private.market_levels(p_slug text)
returns table (date date, value numeric, carried boolean, source text, detail text)
language sql stable set search_path = ''
as $$
  select * from private.market_flower_levels(p_slug)
  union all
  select * from private.market_equity_levels(p_slug)
$$;
revoke all on function private.market_levels(text) from public;

-- Writes what market_levels computes: a new date is revision 1, a changed value the next revision (the
-- old one kept in index_point_revisions), an unchanged value stays as it was (its as_of too), a date
-- no longer computed is removed. Sample points go when the index no longer has sample inputs.
create or replace function private.market_store(p_slug text) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_kind text;
  v_sample boolean := false;
  v_inserted integer := 0;
  v_revised integer := 0;
  v_removed integer := 0;
begin
  select i.kind into v_kind from public.market_indices i where i.slug = p_slug;
  if v_kind is null then
    raise exception 'unknown index %', p_slug using errcode = 'PT404';
  end if;
  if v_kind = 'equity' then
    v_sample := exists (
      select 1 from public.market_closes c
      where c.is_sample and c.ticker in (select m.ticker from public.market_constituents m where m.index_slug = p_slug));
  end if;
  create temp table if not exists market_computed (
    date date primary key, value numeric, carried boolean, source text, detail text
  ) on commit drop;
  truncate market_computed;
  insert into market_computed select * from private.market_levels(p_slug);

  -- sample points never become revisions of real ones
  delete from public.index_points ip where ip.index_slug = p_slug and ip.is_sample <> v_sample;
  delete from public.index_points ip
  where ip.index_slug = p_slug and not exists (select 1 from market_computed c where c.date = ip.date);
  get diagnostics v_removed = row_count;

  update public.index_points ip
     set value = c.value, carried = c.carried, source = c.source, detail = c.detail,
         revision = ip.revision + 1, as_of = now()
    from market_computed c
   where ip.index_slug = p_slug and ip.date = c.date
     and (ip.value, ip.carried) is distinct from (c.value, c.carried);
  get diagnostics v_revised = row_count;
  -- wording only (source, detail) follows without a new revision
  update public.index_points ip
     set source = c.source, detail = c.detail
    from market_computed c
   where ip.index_slug = p_slug and ip.date = c.date
     and (ip.source, ip.detail) is distinct from (c.source, c.detail);

  insert into public.index_points (index_slug, date, value, source, carried, detail, is_sample)
  select p_slug, c.date, c.value, c.source, c.carried, c.detail, v_sample
  from market_computed c
  where not exists (select 1 from public.index_points ip where ip.index_slug = p_slug and ip.date = c.date);
  get diagnostics v_inserted = row_count;

  truncate market_computed;
  return jsonb_build_object('index', p_slug, 'inserted', v_inserted, 'revised', v_revised, 'removed', v_removed);
end
$$;
revoke all on function private.market_store(text) from public;

-- The previous value of a revised point, kept.
create or replace function private.index_points_keep_revision() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.revision <> old.revision then
    insert into public.index_point_revisions (index_slug, date, revision, value, source, as_of, carried)
    values (old.index_slug, old.date, old.revision, old.value, old.source, old.as_of, old.carried)
    on conflict do nothing;
  end if;
  return new;
end
$$;
revoke all on function private.index_points_keep_revision() from public;
create or replace trigger keep_revision before update on public.index_points
  for each row execute function private.index_points_keep_revision();

create or replace function private.market_closes_keep_revision() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.revision <> old.revision then
    insert into public.market_close_revisions (ticker, date, revision, close, source, as_of)
    values (old.ticker, old.date, old.revision, old.close, old.source, old.as_of)
    on conflict do nothing;
  end if;
  return new;
end
$$;
revoke all on function private.market_closes_keep_revision() from public;
create or replace trigger keep_revision before update on public.market_closes
  for each row execute function private.market_closes_keep_revision();

-- An admin's constituent change recomputes the index at once (product §market-index).
create or replace function private.market_constituents_recompute() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare v_slug text;
begin
  for v_slug in select i.slug from public.market_indices i where i.kind = 'equity' loop
    perform private.market_store(v_slug);
  end loop;
  return null;
end
$$;
revoke all on function private.market_constituents_recompute() from public;
create or replace trigger recompute after insert or update or delete on public.market_constituents
  for each statement execute function private.market_constituents_recompute();

create or replace function private.market_require_admin() returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  -- Every data API request carries claims (anon, authenticated, service_role); the server's own work
  -- and an operator's CLI on the database carry none.
  if coalesce(auth.role(), 'service_role') <> 'service_role' and not public.has_role('admin') then
    raise exception 'only administrators may change market data' using errcode = '42501';
  end if;
end
$$;
revoke all on function private.market_require_admin() from public;

-- Admin: recompute an index from its inputs now.
create or replace function public.market_recompute(p_index text) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare v jsonb;
begin
  perform private.market_require_admin();
  v := private.market_store(p_index);
  perform private.audit('market recompute', 'public.index_points', p_index, null, v);
  return v;
end
$$;
revoke all on function public.market_recompute(text) from public;
grant execute on function public.market_recompute(text) to authenticated, service_role;

-- Admin "verify": recompute from the inputs and compare with every stored point.
create or replace function public.market_verify(p_index text) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_checked integer;
  v_mismatches jsonb;
begin
  perform private.market_require_admin();
  if not exists (select 1 from public.market_indices i where i.slug = p_index) then
    raise exception 'unknown index %', p_index using errcode = 'PT404';
  end if;
  with c as (select * from private.market_levels(p_index)),
  s as (select * from public.index_points ip where ip.index_slug = p_index),
  cmp as (
    select coalesce(c.date, s.date) as date, s.value as stored, c.value as computed,
           s.carried as stored_carried, c.carried as computed_carried
    from c full join s on s.date = c.date
  )
  select count(*)::integer,
         coalesce(jsonb_agg(jsonb_build_object('date', cmp.date, 'stored', cmp.stored, 'computed', cmp.computed)
                            order by cmp.date)
                  filter (where (cmp.stored, cmp.stored_carried) is distinct from (cmp.computed, cmp.computed_carried)),
                  '[]'::jsonb)
    into v_checked, v_mismatches
  from cmp;
  return jsonb_build_object('index', p_index, 'checked', v_checked,
                            'mismatches', v_mismatches, 'ok', jsonb_array_length(v_mismatches) = 0);
end
$$;
revoke all on function public.market_verify(text) from public;
grant execute on function public.market_verify(text) to authenticated, service_role;

-- Bring the stored points in line with the definitions above (no change: nothing written).
select private.market_store(i.slug) from public.market_indices i order by i.slug;

-- Every close names a security in market_securities (decision 144: what the foreign key did, per
-- statement). The securities a statement's closes name are locked FOR KEY SHARE, as a foreign key
-- would, so a concurrent delete of one waits for this transaction and then finds its closes.
create or replace function private.market_closes_check_securities() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare v_missing text;
begin
  perform 1 from public.market_securities s
   where s.ticker in (select distinct n.ticker from market_closes_written n)
     for key share of s;
  select n.ticker into v_missing
  from (select distinct w.ticker from market_closes_written w) n
  where not exists (select 1 from public.market_securities s where s.ticker = n.ticker)
  limit 1;
  if v_missing is not null then
    raise exception 'insert or update on table "market_closes" violates foreign key constraint "market_closes_ticker_fkey"'
      using errcode = '23503',
            detail = format('Key (ticker)=(%s) is not present in table "market_securities".', v_missing);
  end if;
  return null;
end
$$;
revoke all on function private.market_closes_check_securities() from public;
create or replace trigger check_securities_insert after insert on public.market_closes
  referencing new table as market_closes_written
  for each statement execute function private.market_closes_check_securities();
create or replace trigger check_securities_update after update on public.market_closes
  referencing new table as market_closes_written
  for each statement execute function private.market_closes_check_securities();

-- A security with closes cannot be deleted or renamed (the foreign key's "no action").
create or replace function private.market_securities_check_closes() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare v_used text;
begin
  select o.ticker into v_used
  from market_securities_before o
  where not exists (select 1 from public.market_securities s where s.ticker = o.ticker)
    and exists (select 1 from public.market_closes c where c.ticker = o.ticker)
  limit 1;
  if v_used is not null then
    raise exception 'update or delete on table "market_securities" violates foreign key constraint "market_closes_ticker_fkey" on table "market_closes"'
      using errcode = '23503',
            detail = format('Key (ticker)=(%s) is still referenced from table "market_closes".', v_used);
  end if;
  return null;
end
$$;
revoke all on function private.market_securities_check_closes() from public;
create or replace trigger check_closes_delete after delete on public.market_securities
  referencing old table as market_securities_before
  for each statement execute function private.market_securities_check_closes();
create or replace trigger check_closes_update after update on public.market_securities
  referencing old table as market_securities_before
  for each statement execute function private.market_securities_check_closes();
