-- Brand directory reads and admin actions (product §brand-directory, decisions 119–121): the
-- directory search (typo-tolerant through pg_trgm), the trust page in one call, the scam-report
-- summary every visitor may see, the representatives' profile edit and the admins' merge.

-- How long a licence check stays current (decision 207): a verified licence whose check is older is
-- shown as "due for re-check" and drops out of "verified only", whatever its expiry date says.
create or replace function public.brands_licence_recheck_period() returns interval
language sql immutable parallel safe set search_path = ''
as $$
  select interval '12 months'
$$;

-- A licence's verification as shown: a verified licence past its expiry date reads "expired"; one
-- whose check is older than brands_licence_recheck_period() reads "recheck_due" (decision 207).
create or replace function public.brands_effective_verification(
  verification text, expires_on date, verified_at timestamptz)
returns text
language sql stable parallel safe set search_path = ''
as $$
  select case
    when verification = 'verified' and expires_on is not null and expires_on < current_date then 'expired'
    when verification = 'verified' and (verified_at is null
      or verified_at < now() - public.brands_licence_recheck_period()) then 'recheck_due'
    else verification end
$$;

-- The same, as a computed field of a brand row and of a licence row, so the admin screens read the
-- verification as shown beside the stored one (`select=verification,shown_verification`, decision 212).
create or replace function public.shown_verification(item public.brands) returns text
language sql stable parallel safe set search_path = ''
as $$
  select public.brands_effective_verification(item.verification, item.licence_expires_on, item.verified_at)
$$;

create or replace function public.shown_verification(item public.brand_licences) returns text
language sql stable parallel safe set search_path = ''
as $$
  select public.brands_effective_verification(item.verification, item.expires_on, item.verified_at)
$$;

-- The states and categories a brand is counted under (each once, however often its arrays name it).
create or replace function private.brands_facets(states text[], categories text[])
returns table (facet text, value text)
language sql immutable parallel safe set search_path = ''
as $$
  select 'state', s from unnest(states) s where s is not null
  union
  select 'category', c from unnest(categories) c where c is not null
$$;
revoke all on function private.brands_facets(text[], text[]) from public, anon, authenticated;

-- How many live (not archived) brands there are, in all (decision 250) and in each state and category
-- (decision 253), kept in private.brands_live_count and private.brands_live_facet_counts as brands are
-- written, so the directory's pages unfiltered or filtered by one state or one category read their
-- total instead of counting the brands. Statement-level: a bulk insert moves each count once. A write
-- that changes no brand's liveness, states or categories (an edit of its city) leaves the counts
-- alone, so only adding, archiving, re-filing and deleting brands queue on them.
create or replace function private.brands_count_live() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  -- The live brands the statement added (n = 1) and took away (n = -1): an edit is both.
  v_moved jsonb := '[]';
  v_change bigint;
begin
  if tg_op = 'TRUNCATE' then
    update private.brands_live_count set live = 0 where live <> 0;
    delete from private.brands_live_facet_counts;
    return null;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    v_moved := v_moved || coalesce((
      select jsonb_agg(jsonb_build_object('n', 1, 'states', a.states, 'categories', a.categories))
      from brands_arrived a where a.archived_at is null), '[]');
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    v_moved := v_moved || coalesce((
      select jsonb_agg(jsonb_build_object('n', -1, 'states', l.states, 'categories', l.categories))
      from brands_left l where l.archived_at is null), '[]');
  end if;
  if v_moved = '[]' then
    return null;
  end if;
  select coalesce(sum(m.n), 0) into v_change from jsonb_to_recordset(v_moved) as m(n integer);
  if v_change <> 0 then
    update private.brands_live_count set live = live + v_change;
  end if;
  -- In a fixed order, so two statements filing brands under the same values cannot deadlock.
  insert into private.brands_live_facet_counts as k (facet, value, live)
  select f.facet, f.value, sum(m.n)
  from jsonb_to_recordset(v_moved) as m(n integer, states text[], categories text[])
  cross join lateral private.brands_facets(m.states, m.categories) f
  group by f.facet, f.value
  having sum(m.n) <> 0
  order by f.facet, f.value
  on conflict (facet, value) do update set live = k.live + excluded.live;
  return null;
end
$$;
revoke all on function private.brands_count_live() from public, anon, authenticated;

-- Transition tables allow one event per trigger, so three triggers share the function.
create or replace trigger count_live_added after insert on public.brands
  referencing new table as brands_arrived for each statement execute function private.brands_count_live();
create or replace trigger count_live_changed after update on public.brands
  referencing old table as brands_left new table as brands_arrived
  for each statement execute function private.brands_count_live();
create or replace trigger count_live_removed after delete on public.brands
  referencing old table as brands_left for each statement execute function private.brands_count_live();
create or replace trigger count_live_emptied after truncate on public.brands
  for each statement execute function private.brands_count_live();

-- The counts as the directory reads them (search_brands runs as its caller, who cannot read private
-- tables). They say no more than the directory itself does: every brand is public.
create or replace function private.brands_live_total() returns bigint
language sql stable security definer set search_path = ''
as $$
  select c.live from private.brands_live_count c
$$;
revoke all on function private.brands_live_total() from public;
grant execute on function private.brands_live_total() to anon, authenticated, service_role;

create or replace function private.brands_live_facet_total(p_facet text, p_value text) returns bigint
language sql stable security definer set search_path = ''
as $$
  select coalesce((select k.live from private.brands_live_facet_counts k
    where k.facet = p_facet and k.value = p_value), 0)
$$;
revoke all on function private.brands_live_facet_total(text, text) from public;
grant execute on function private.brands_live_facet_total(text, text) to anon, authenticated, service_role;

-- Counts the live brands again, in all and in each state and category, and refills the vocabulary of
-- their names, for a bulk import that wrote them with the triggers off (session_replication_role =
-- replica, as the benches seed): what the triggers keep is then out of date. Returns the count in all.
create or replace function private.brands_recount_live() returns bigint
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_live bigint;
begin
  delete from private.brands_live_facet_counts;
  insert into private.brands_live_facet_counts (facet, value, live)
  select f.facet, f.value, count(*)
  from public.brands b cross join lateral private.brands_facets(b.states, b.categories) f
  where b.archived_at is null
  group by f.facet, f.value;
  update private.brands_live_count
  set live = (select count(*) from public.brands b where b.archived_at is null)
  returning live into v_live;
  -- The words of the names, likewise (decision 272; brands_name_words.sql).
  perform private.brands_refill_name_words();
  return v_live;
end
$$;
revoke all on function private.brands_recount_live() from public, anon, authenticated;

-- The directory: live brands matching a name (the text as typed, or each word typed, misspelt or not, so
-- "gren thum" finds "Green Thumb"), a state, a category, verified only; sorted by relevance (word
-- similarity, with a query), name, community score (Wilson lower bound of the products' Gas share) or
-- newest; one page and the total.
create or replace function public.search_brands(
  q text default null,
  state text default null,
  category text default null,
  verified_only boolean default false,
  sort text default null,
  page_size integer default 24,
  page_offset integer default 0
)
returns table (
  id uuid,
  name text,
  slug text,
  logo_url text,
  states text[],
  city text,
  categories text[],
  verification text,
  verified_at timestamptz,
  licence_number text,
  licence_state text,
  is_sample boolean,
  created_at timestamptz,
  products integer,
  gas integer,
  pass integer,
  gas_share double precision,
  community_score double precision,
  match double precision,
  total bigint
)
language plpgsql stable set search_path = ''
-- A page of 24 is read through indexes; two parallel workers took longer to start than the search
-- itself (decisions 271, 272).
set max_parallel_workers_per_gather = 0
as $$
declare
  v_q text := nullif(btrim(regexp_replace(coalesce(q, ''), '[[:space:]]+', ' ', 'g')), '');
  v_sort text;
  v_where text := 'b.archived_at is null';
  v_total bigint;
  v_order text;
  v_from text;
  -- How many filters the page has, and its state or category when that is the only one (decision 253).
  v_filters integer := 0;
  v_facet text;
  v_value text;
  v_contains text;
  v_words tsquery;
begin
  if v_q is not null and char_length(v_q) > 100 then
    raise exception using errcode = '22023', message = 'Search for at most 100 characters.';
  end if;
  if state is not null and state !~ '^[A-Z]{2}$' then
    raise exception using errcode = '22023', message = 'State must be a two-letter code such as CA.';
  end if;
  if category is not null and not private.brands_are_categories(array[category]) then
    raise exception using errcode = '22023', message = 'Unknown category.';
  end if;
  v_sort := coalesce(nullif(sort, ''), case when v_q is null then 'name' else 'relevance' end);
  if v_sort not in ('relevance', 'name', 'score', 'newest') then
    raise exception using errcode = '22023', message = 'Sort by relevance, name, score or newest.';
  end if;
  if v_sort = 'relevance' and v_q is null then
    v_sort := 'name';
  end if;
  if page_size is null or page_size < 1 or page_size > 100 then
    raise exception using errcode = '22023', message = 'A page holds 1 to 100 brands.';
  end if;
  if page_offset is null or page_offset < 0 or page_offset > 100000 then
    raise exception using errcode = '22023', message = 'The page offset must be between 0 and 100000.';
  end if;

  -- The statement is built with the filters as literals (format %L), so each call is planned for its
  -- own values: the trigram index for a name, the state and category indexes, the sort's index.
  if v_q is not null then
    -- A name matches when it holds the text as typed, or every word typed: as itself, as the start of
    -- one of its words, or misspelt ("gren thum" for Green Thumb; decision 272). The text through the
    -- keys of where its words meet (decision 270) or, without three letters or digits in a row, its
    -- short runs (decision 261), then the trigrams; the words through brands_live_name_words_idx.
    v_contains := format('b.name ilike %L', private.contains_pattern(v_q));
    if v_q !~ '[[:alnum:]]{3}' then
      v_contains := private.name_runs_condition('b.name', v_q) || ' and ' || v_contains;
    end if;
    v_contains := concat_ws(' and ', private.name_meetings_condition('b.name', v_q), v_contains);
    v_words := private.brands_name_query(v_q);
    if v_words is not null then
      v_contains := format('(%s) or to_tsvector(''simple''::regconfig, b.name) @@ %L::tsquery', v_contains, v_words);
    end if;
    v_where := v_where || ' and (' || v_contains || ')';
  end if;
  -- With a name, the state and category filter the name's matches rather than being read through
  -- their own indexes (decision 275): expecting thousands of matches for a word and its close words,
  -- the planner read every brand of the state to AND them with the name's (152,381 for California
  -- among 2,200,000 brands, 19 ms of a 39 ms search that matched 85).
  if state is not null then
    v_where := v_where || case when v_q is null then format(' and b.states @> array[%L]', state)
      else format(' and %L = any(b.states)', state) end;
    v_filters := v_filters + 1;
    v_facet := 'state';
    v_value := state;
  end if;
  if category is not null then
    v_where := v_where || case when v_q is null then format(' and b.categories @> array[%L]', category)
      else format(' and %L = any(b.categories)', category) end;
    v_filters := v_filters + 1;
    v_facet := 'category';
    v_value := category;
  end if;
  if coalesce(verified_only, false) then
    v_filters := v_filters + 1;
    v_facet := null;
    -- The same rule as the badge: verified, not expired, checked within the re-check period.
    v_where := v_where || ' and public.brands_effective_verification(b.verification, b.licence_expires_on, b.verified_at) = ''verified''';
  end if;

  -- With a name, the matches are few: find them once, count them and sort them in one pass. Each match
  -- carries what its order needs (a score order's tallies looked up by key), so the page is sorted
  -- without joining the matches to the brands again: the planner, expecting thousands of matches for
  -- a word and its close words, would read every brand to hash them (decision 272).
  if v_q is not null then
    return query execute format(
      'with m as materialized (
         select b.id, lower(b.name) as sort_name, b.created_at,
           extensions.word_similarity(%L, b.name)::double precision as score%s
         from public.brands b where %s
       ), n as (select count(*) as total from m),
       page as (
         select m.id, m.score from m order by %s limit %s offset %s
       )
       select b.id, b.name, b.slug, b.logo_url, b.states, b.city, b.categories,
         public.brands_effective_verification(b.verification, b.licence_expires_on, b.verified_at),
         b.verified_at, b.licence_number, b.licence_state, b.is_sample, b.created_at,
         coalesce(t.products, 0), coalesce(t.gas, 0), coalesce(t.pass, 0),
         case when t.counted > 0 then t.gas::double precision / t.counted end,
         coalesce(t.wilson, 0), page.score, n.total
       from page cross join n join public.brands b on b.id = page.id
       left join public.brand_tallies t on t.brand_id = b.id
       order by %s',
      v_q,
      case when v_sort = 'score' then ',
           coalesce((select t.wilson from public.brand_tallies t where t.brand_id = b.id), 0) as wilson,
           coalesce((select t.counted from public.brand_tallies t where t.brand_id = b.id), 0) as counted' else '' end,
      v_where,
      case v_sort
        when 'relevance' then 'm.score desc, m.sort_name, m.id'
        when 'name' then 'm.sort_name, m.id'
        when 'newest' then 'm.created_at desc, m.id'
        else 'm.wilson desc, m.counted desc, m.id' end,
      page_size, page_offset,
      case v_sort
        when 'relevance' then 'page.score desc, lower(b.name), b.id'
        when 'name' then 'lower(b.name), b.id'
        when 'newest' then 'b.created_at desc, b.id'
        else 'coalesce(t.wilson, 0) desc, coalesce(t.counted, 0) desc, b.id' end);
    return;
  end if;

  if v_filters = 0 then
    -- Every live brand: the count kept as brands are written (decision 250), not a count of them all.
    v_total := private.brands_live_total();
  elsif v_filters = 1 and v_facet is not null then
    -- The live brands of one state or one category, kept likewise (decision 253).
    v_total := private.brands_live_facet_total(v_facet, v_value);
  else
    execute 'select count(*) from public.brands b where ' || v_where into v_total;
  end if;
  if v_total = 0 then
    return;
  end if;

  v_from := 'public.brands b';
  v_order := case v_sort
    when 'relevance' then format('extensions.word_similarity(%L, b.name) desc, lower(b.name), b.id', v_q)
    when 'name' then 'lower(b.name), b.id'
    when 'newest' then 'b.created_at desc, b.id'
    else 't.wilson desc, t.counted desc, b.id' end;
  if v_sort = 'score' then
    v_from := 'public.brand_tallies t join public.brands b on b.id = t.brand_id';
  end if;

  return query execute format(
    'with page as (
       select b.id from %s where %s order by %s limit %s offset %s
     )
     select b.id, b.name, b.slug, b.logo_url, b.states, b.city, b.categories,
       public.brands_effective_verification(b.verification, b.licence_expires_on, b.verified_at),
       b.verified_at, b.licence_number, b.licence_state, b.is_sample, b.created_at,
       coalesce(t.products, 0), coalesce(t.gas, 0), coalesce(t.pass, 0),
       case when t.counted > 0 then t.gas::double precision / t.counted end,
       coalesce(t.wilson, 0),
       %s,
       %s::bigint
     from page join public.brands b on b.id = page.id
     left join public.brand_tallies t on t.brand_id = b.id
     order by %s',
    v_from, v_where, v_order, page_size, page_offset,
    case when v_q is null then 'null::double precision'
      else format('extensions.word_similarity(%L, b.name)::double precision', v_q) end,
    v_total,
    case when v_sort = 'score' then 'coalesce(t.wilson, 0) desc, coalesce(t.counted, 0) desc, b.id'
      else v_order end);
end
$$;
comment on function public.search_brands(text, text, text, boolean, text, integer, integer) is
  'Brand directory: live brands by name (typo-tolerant), state, category, verified only; sorted; one page plus the total.';

-- An approved representative of the brand reads its reports free (decision 201): the same test as
-- private.brands_is_representative, which brands_policies.sql defines after this file.
create or replace function private.brand_report_summary_representative(brand uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select (select auth.uid()) is not null and exists (
    select 1 from public.brand_claims c
    where c.brand_id = brand_report_summary_representative.brand and c.user_id = (select auth.uid())
      and c.status = 'approved'
  )
$$;
revoke all on function private.brand_report_summary_representative(uuid) from public;

-- Scam-report status (product §brand-directory): how many published reports are linked to the brand
-- and when they were filed — for everyone, never their contents. Whether the caller may open them
-- (the Scammer Network's access rule) comes with it; the reports themselves stay behind
-- scammer_reports' own policy.
create or replace function public.brand_report_summary(p_brand_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select jsonb_build_object(
    -- Every published report linked to the brand counts; the dates and reply links list the latest 50.
    'count', (select count(*) from public.scammer_reports c
      where c.brand_id = p_brand_id and c.status = 'published' and c.merged_into is null),
    'dates', coalesce(jsonb_agg(to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD') order by r.created_at desc, r.id)
      filter (where r.id is not null), '[]'::jsonb),
    -- Each report's id, for "Named in a report? Reply" (decision 201): which report, never its content.
    'ids', coalesce(jsonb_agg(r.id order by r.created_at desc, r.id) filter (where r.id is not null), '[]'::jsonb),
    'has_access', public.has_scammer_access() or private.brand_report_summary_representative(p_brand_id),
    'is_representative', private.brand_report_summary_representative(p_brand_id)
  )
  from (
    select r.id, r.created_at from public.scammer_reports r
    -- A duplicate merged into another report is one report to readers, so counted once (decision 196).
    where r.brand_id = p_brand_id and r.status = 'published' and r.merged_into is null
    order by r.created_at desc, r.id
    limit 50
  ) r
$$;
comment on function public.brand_report_summary(uuid) is
  'Count, dates and ids of the published scam reports linked to a brand, and whether the caller may read them (access, or the brand''s representative). Never details.';

-- A live product's place in Pass or Gas's Top list, as the list numbers it: 1 + the live products the
-- list puts above it (its order: Wilson bound, then counted votes, both descending, then id), so equal
-- products get the list's #1, #2, … rather than all sharing one rank (issue 34). Counted on the tallies'
-- Top index, less the few archived products above.
drop function if exists private.brands_top_rank(double precision, integer);
create or replace function private.brands_top_rank(product text, wilson double precision, counted integer)
returns bigint
language sql stable security definer set search_path = ''
as $$
  select 1
    + (select count(*) from public.product_tallies o
        where o.wilson > brands_top_rank.wilson
           or (o.wilson = brands_top_rank.wilson and o.counted > brands_top_rank.counted)
           or (o.wilson = brands_top_rank.wilson and o.counted = brands_top_rank.counted
               and o.product_id < brands_top_rank.product))
    - (select count(*) from public.products ap join public.product_tallies o on o.product_id = ap.id
        where ap.archived_at is not null
          and (o.wilson > brands_top_rank.wilson
            or (o.wilson = brands_top_rank.wilson and o.counted > brands_top_rank.counted)
            or (o.wilson = brands_top_rank.wilson and o.counted = brands_top_rank.counted
                and o.product_id < brands_top_rank.product)))
$$;
revoke all on function private.brands_top_rank(text, double precision, integer) from public;
grant execute on function private.brands_top_rank(text, double precision, integer) to anon, authenticated, service_role;

-- The trust page in one call: the brand (or where a merged brand went), its tallies, its live products
-- with their tallies and Top rank, the scam-report summary, and the caller's claim and representation.
create or replace function public.brand_page(p_slug text) returns jsonb
language plpgsql stable set search_path = ''
as $$
declare
  v_brand public.brands;
  v_into text;
  v_result jsonb;
begin
  if p_slug is null or p_slug !~ '^[a-z0-9]+(-[a-z0-9]+)*$' or char_length(p_slug) > 80 then
    return null;
  end if;
  select b.* into v_brand from public.brands b where b.slug = p_slug;
  if not found then
    return null;
  end if;
  if v_brand.merged_into is not null then
    select b.slug into v_into from public.brands b where b.id = v_brand.merged_into;
  end if;
  select jsonb_build_object(
    'brand', to_jsonb(v_brand) - 'verified_by'
      || jsonb_build_object('verification',
        public.brands_effective_verification(v_brand.verification, v_brand.licence_expires_on,
          v_brand.verified_at)),
    -- Every licence, the primary first (decision 151); the brand object keeps the primary's fields.
    'licences', coalesce((
      select jsonb_agg(jsonb_build_object('id', l.id, 'number', l.number, 'state', l.state, 'type', l.type,
          'expires_on', l.expires_on,
          'verification', public.brands_effective_verification(l.verification, l.expires_on, l.verified_at),
          'verified_at', l.verified_at, 'verification_note', l.verification_note, 'is_primary', l.is_primary)
        order by l.is_primary desc, l.state, l.number, l.id)
      from public.brand_licences l where l.brand_id = v_brand.id
    ), '[]'::jsonb),
    'merged_into_slug', v_into,
    'tallies', (select jsonb_build_object('products', t.products, 'gas', t.gas, 'pass', t.pass,
        'gas_share', case when t.counted > 0 then t.gas::double precision / t.counted end,
        'community_score', t.wilson)
      from public.brand_tallies t where t.brand_id = v_brand.id),
    'products', coalesce((
      select jsonb_agg(jsonb_build_object('id', p.id, 'name', p.name, 'category', p.category,
          'image_url', p.image_url, 'gas', p.gas, 'pass', p.pass, 'gas_share', p.gas_share,
          'is_sample', p.is_sample,
          'rank', private.brands_top_rank(p.id, p.wilson, p.counted))
        order by p.wilson desc, p.counted desc, p.id)
      from (select * from public.product_rankings r where r.brand_id = v_brand.id
            order by r.wilson desc, r.counted desc, r.id limit 100) p
    ), '[]'::jsonb),
    'reports', public.brand_report_summary(v_brand.id),
    'is_representative', private.brands_is_representative(v_brand.id),
    'my_claim', (select jsonb_build_object('id', c.id, 'status', c.status, 'created_at', c.created_at)
      from public.brand_claims c
      where c.brand_id = v_brand.id and c.user_id = (select auth.uid())
      order by c.created_at desc limit 1)
  ) into v_result;
  return v_result;
end
$$;
comment on function public.brand_page(text) is
  'Brand trust page: brand, its licences, merge target, tallies, products with Top rank, scam-report summary, the caller''s claim.';

-- A representative's (or admin's) edit of the fields representatives own: description, logo, links.
-- Through the table's policies and guard, with a clear error instead of "0 rows" for someone else's brand.
create or replace function public.brands_update_profile(
  p_brand_id uuid, description text, logo_url text, website text, social_links text[]
) returns public.brands
language plpgsql volatile set search_path = ''
as $$
declare
  v_row public.brands;
begin
  if (select auth.uid()) is null then
    raise exception using errcode = '42501', message = 'Sign in to edit a brand.';
  end if;
  if not (public.has_role('admin') or private.brands_is_representative(p_brand_id)) then
    raise exception using errcode = '42501', message = 'Only this brand''s approved representatives can edit it.';
  end if;
  update public.brands b set
    description = coalesce(brands_update_profile.description, ''),
    logo_url = nullif(btrim(brands_update_profile.logo_url), ''),
    website = nullif(btrim(brands_update_profile.website), ''),
    social_links = coalesce(brands_update_profile.social_links, '{}')
  where b.id = p_brand_id and b.archived_at is null
  returning b.* into v_row;
  if not found then
    raise exception using errcode = 'PT404', message = 'This brand does not exist or is archived.';
  end if;
  return v_row;
end
$$;

-- Merge a duplicate into the brand that stays (admins): its products, linked scam reports and claims
-- move; the duplicate is archived and points at the brand that stays, so its address forwards.
create or replace function public.brands_merge(p_from uuid, p_into uuid) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_products integer;
  v_reports integer;
  v_claims integer;
  v_licences integer;
begin
  if not public.has_role('admin') then
    raise exception using errcode = '42501', message = 'Only admins can merge brands.';
  end if;
  if p_from is null or p_into is null or p_from = p_into then
    raise exception using errcode = '22023', message = 'Choose two different brands to merge.';
  end if;
  perform 1 from public.brands b where b.id in (p_from, p_into) for update;
  if not exists (select 1 from public.brands b where b.id = p_from and b.merged_into is null) then
    raise exception using errcode = 'PT404', message = 'The duplicate does not exist or was already merged.';
  end if;
  if not exists (select 1 from public.brands b where b.id = p_into and b.archived_at is null) then
    raise exception using errcode = 'PT404', message = 'The brand to keep does not exist or is archived.';
  end if;
  update public.products p set brand_id = p_into where p.brand_id = p_from;
  get diagnostics v_products = row_count;
  update public.scammer_reports r set brand_id = p_into where r.brand_id = p_from;
  get diagnostics v_reports = row_count;
  update public.brand_claims c set brand_id = p_into
  where c.brand_id = p_from
    and not exists (select 1 from public.brand_claims o where o.brand_id = p_into and o.user_id = c.user_id
      and o.status in ('pending', 'approved'));
  get diagnostics v_claims = row_count;
  -- Licences: the kept brand gains each of the duplicate's that it does not list (same state and
  -- number), verification and verifier as they were, up to its 20; the duplicate's primary stays
  -- primary only where the kept brand had none. The duplicate keeps its own record of them.
  insert into public.brand_licences (brand_id, number, state, type, expires_on, verification, verified_at,
    verified_by, verification_note, is_primary)
  select p_into, l.number, l.state, l.type, l.expires_on, l.verification, l.verified_at, l.verified_by,
    l.verification_note,
    l.is_primary and not exists (select 1 from public.brand_licences k where k.brand_id = p_into and k.is_primary)
  from public.brand_licences l
  where l.brand_id = p_from
    and not exists (select 1 from public.brand_licences k
                    where k.brand_id = p_into and k.state = l.state and upper(k.number) = upper(l.number))
  order by l.is_primary desc, l.created_at, l.id
  limit greatest(0, 20 - (select count(*) from public.brand_licences k where k.brand_id = p_into));
  get diagnostics v_licences = row_count;
  update public.brands b set archived_at = coalesce(b.archived_at, now()), merged_into = p_into where b.id = p_from;
  perform private.audit('brand.merge', 'public.brands', p_from::text,
    jsonb_build_object('id', p_from), jsonb_build_object('merged_into', p_into, 'products', v_products,
      'reports', v_reports, 'claims', v_claims, 'licences', v_licences));
  return jsonb_build_object('products', v_products, 'reports', v_reports, 'claims', v_claims,
    'licences', v_licences);
end
$$;
revoke all on function public.brands_merge(uuid, uuid) from public, anon;
grant execute on function public.brands_merge(uuid, uuid) to authenticated, service_role;
