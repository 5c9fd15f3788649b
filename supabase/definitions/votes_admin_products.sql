-- The admins' product list (/admin/products, decision 262): every product, archived ones included,
-- newest first, or those whose name holds the text typed (any case; % _ and \ as typed), at most
-- max_rows. Through the data API the list was the newest 200 and nothing else: an admin could not
-- reach an older product to edit or archive it, and a name search there (`ilike` under the table's
-- policy) could use no index. Here the list reads products_created_at_idx, and a search walks five
-- pages' worth of it first (decision 263), then counts its matches (count_first.sql) through the
-- names' trigrams — or, without three letters or digits in a row, through their one- and
-- two-character runs and its other characters (products_name_grams_idx, decision 261;
-- products_name_marks_idx, decision 265), and through where its words meet (products_name_meetings_idx,
-- decision 270): a few are sorted, many are read newest first until the page is full.
-- Owner's rights: admins read every product under the table's policy too; others are refused.
create or replace function public.admin_find_products(q text default null, max_rows integer default 200)
returns setof public.products
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_q text := btrim(coalesce(q, ''));
  v_rows integer := coalesce(max_rows, 200);
  v_order text;
  v_match text;
  v_count text;
  v_cap integer;
  v_ids text[];
begin
  if not public.has_role('admin') then
    raise exception using errcode = '42501', message = 'Only admins can list every product.';
  end if;
  if char_length(v_q) > 100 then
    raise exception using errcode = '22023', message = 'Search for at most 100 characters.';
  end if;
  if v_rows < 1 or v_rows > 1000 then
    raise exception using errcode = '22023', message = 'Ask for 1 to 1000 products.';
  end if;

  v_order := format('order by p.created_at desc, p.id limit %s', v_rows);
  v_match := format('p.name ilike %L', private.contains_pattern(v_q));
  v_count := v_match;
  if v_q !~ '[[:alnum:]]{3}' then
    v_count := private.name_runs_condition('p.name', v_q) || ' and ' || v_match;
  end if;
  -- Where its words meet, if they do (products_name_meetings_idx, decision 270): a whole name is
  -- counted through keys few names share, not only through trigrams millions share (its number's).
  v_count := concat_ws(' and ', private.name_meetings_condition('p.name', v_q), v_count);
  if v_q = '' then
    v_ids := private.count_first_ids(format('select p.id from public.products p where %s %s', v_match, v_order), true);
  else
    -- Five pages' worth of the order first: a name many products hold fills its page there (decision
    -- 263); then count first.
    v_cap := private.count_first_cap('public.products', v_rows);
    v_ids := private.walk_then_count_page(
      format('select p.id from (select p.id, p.name, p.created_at from public.products p
        order by p.created_at desc, p.id limit %s) p where %s order by p.created_at desc, p.id limit %s',
        least(5 * v_rows, v_cap), v_match, v_rows),
      v_rows,
      format('select p.id from public.products p where %s limit %s', v_count, v_cap + 1),
      'select p.id from public.products p where p.id = any(%L::text[]) ' || v_order,
      format('select p.id from public.products p where %s %s', v_match, v_order),
      v_cap);
  end if;
  -- One product by id for each (offset 0 keeps it a lookup, not a join reading every product).
  return query
    select p.*
    from unnest(v_ids) with ordinality as m (id, n)
    cross join lateral (select p.* from public.products p where p.id = m.id offset 0) p
    order by m.n;
end
$$;

comment on function public.admin_find_products(text, integer) is
  'Admins: every product, archived ones included, newest first, those whose name holds q, at most max_rows (decision 262).';
