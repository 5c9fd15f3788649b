-- The admins' brand list (/admin/brands and the merge dialog, decision 260): live or archived brands,
-- by name (any case), those whose name holds the text typed (any case; % _ and \ as typed), at most
-- max_rows. Through the data API this was `name ilike … order by name`: an order no index held (the
-- live brands' index is on lower(name)), so every page sorted every live brand, and a rare name read
-- them all. Here the list reads its order's index (brands_live_name_idx, brands_archived_name_idx),
-- and a search first walks five pages' worth of that order (enough for a name many brands hold, spread
-- through it), then counts its matches through brands_name_trgm_idx (count_first.sql): a few are
-- sorted; many are looked for down the order's index within a bounded walk, then, if the page is not
-- full, sorted. A search without three letters or digits in a row counts through the names' one- and
-- two-character runs and its other characters ("&", "#") instead (brands_name_grams_idx, decision 261;
-- brands_name_marks_idx, decision 265). A search of words also counts through where they meet
-- (brands_name_meetings_idx, decision 270).
-- Owner's rights: admins read every brand under the table's policy too; others are refused.
create or replace function public.admin_find_brands(
  q text default null,
  archived boolean default false,
  max_rows integer default 100
)
returns setof public.brands
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_q text := btrim(coalesce(q, ''));
  v_rows integer := coalesce(max_rows, 100);
  v_state text := case when coalesce(archived, false) then 'b.archived_at is not null'
    else 'b.archived_at is null' end;
  v_order text;
  v_match text;
  v_count text;
  v_walk text;
  v_cap integer;
  v_ids text[];
begin
  if not public.has_role('admin') then
    raise exception using errcode = '42501', message = 'Only admins can list every brand.';
  end if;
  if char_length(v_q) > 100 then
    raise exception using errcode = '22023', message = 'Search for at most 100 characters.';
  end if;
  if v_rows < 1 or v_rows > 1000 then
    raise exception using errcode = '22023', message = 'Ask for 1 to 1000 brands.';
  end if;

  v_order := format('order by lower(b.name), b.id limit %s', v_rows);
  v_match := format('b.name ilike %L', private.contains_pattern(v_q));
  v_count := v_match;
  if v_q !~ '[[:alnum:]]{3}' then
    -- No trigram: the search's runs of one or two letters or digits and its other characters, every one
    -- a name's (decisions 261, 265).
    v_count := private.name_runs_condition('b.name', v_q) || ' and ' || v_match;
  end if;
  -- Where its words meet, if they do (brands_name_meetings_idx, decision 270): a whole name is
  -- counted through keys few names share, not only through trigrams many share.
  v_count := concat_ws(' and ', private.name_meetings_condition('b.name', v_q), v_count);
  -- The page among the first n brands of the order, for a bounded walk: a format of its own, n its one
  -- %s (the pattern's % doubled to stay themselves).
  v_walk := format('select b.id::text from (select b.id, b.name, lower(b.name) as sort_name
      from public.brands b where %s order by lower(b.name), b.id limit %%s) b
    where %s order by b.sort_name, b.id limit %s', v_state, replace(v_match, '%', '%%'), v_rows);
  if v_q = '' then
    -- The list: the order's index.
    v_ids := private.count_first_ids(
      format('select b.id::text from public.brands b where %s and %s %s', v_state, v_match, v_order), true);
  else
    -- First a short walk of the order, five pages' worth of brands: a name that many brands hold,
    -- spread through the order ("farms"), fills its page there, at the same cost however many brands
    -- there are; counting it first would read up to the cap, which grows as √brands.
    v_ids := private.count_first_ids(format(v_walk, 5 * v_rows), true);
  end if;
  if v_q <> '' and cardinality(v_ids) < v_rows then
    -- Count through the trigram (or short-run) index, up to the cap. The name's condition alone leads
    -- the count (offset 0 keeps the other out): with it, a partial index whose own condition is
    -- `archived_at is null` could offer every live brand as the candidates.
    v_cap := private.count_first_cap('public.brands', v_rows);
    v_ids := private.count_first_ids(format(
      'select b.id::text from (select b.id, b.archived_at from public.brands b where %s offset 0) b
       where %s limit %s', v_count, v_state, v_cap + 1));
    if cardinality(v_ids) > v_cap then
      -- Many match. Unlike the other searches' orders, the name order gathers a name's matches in one
      -- place ("green …" after every "brand …"), so walking it for a page may read most of the list
      -- first. The walk is given twice the cap — where matches are spread, as many as there are, a page
      -- is met well within it — and when it falls short every match is sorted.
      v_ids := private.count_first_ids(format(v_walk, 2 * v_cap), true);
      if cardinality(v_ids) < v_rows then
        v_ids := private.count_first_ids(format(
          'select b.id::text from (select b.id, b.name, b.archived_at from public.brands b where %s offset 0) b
           where %s %s', v_count, v_state, v_order));
      end if;
    elsif cardinality(v_ids) > 0 then
      v_ids := private.count_first_ids(format(
        'select b.id::text from public.brands b where b.id = any(%L::uuid[]) ' || v_order, v_ids));
    end if;
  end if;
  -- One brand by id for each (offset 0 keeps it a lookup): a page of a hundred wide rows would
  -- otherwise be joined by reading every brand.
  return query
    select b.*
    from unnest(v_ids::uuid[]) with ordinality as m (id, n)
    cross join lateral (select b.* from public.brands b where b.id = m.id offset 0) b
    order by m.n;
end
$$;

comment on function public.admin_find_brands(text, boolean, integer) is
  'Admins: live (or archived) brands by name, those whose name holds q, at most max_rows (decision 260).';
