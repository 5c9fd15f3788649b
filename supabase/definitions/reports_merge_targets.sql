-- The published reports a duplicate may be merged into (decision 258): published, not merged
-- themselves, not the report in hand, whose scammer or business name holds the text typed (any case;
-- % _ and \ as typed), most recently reviewed first, eight at most. Through the data API this was an
-- `ilike` under the table's policy, which no index may serve: a rare name read every published report
-- (120–190 ms among 200,000). Here the matches are counted first through the names' trigram indexes
-- (count_first.sql): a few are sorted, many are read down scammer_reports_published_reviewed_at_idx.
-- A search without three letters or digits in a row has no trigram to count through and reads that
-- order until eight are found.
create or replace function public.admin_find_merge_targets(q text, exclude uuid default null)
returns table (id uuid, scammer_name text, business_name text, reviewed_at timestamptz)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_q text := btrim(coalesce(q, ''));
  v_pattern text;
  v_names text;
  v_match text;
  v_newest text;
  v_cap integer;
  v_ids text[];
begin
  if not public.has_role('admin') then
    raise exception using errcode = '42501', message = 'Only admins can merge reports.';
  end if;
  if char_length(v_q) < 2 then
    raise exception using errcode = '22023', message = 'Type at least two characters.';
  end if;
  if char_length(v_q) > 100 then
    raise exception using errcode = '22023', message = 'Search for at most 100 characters.';
  end if;

  v_pattern := private.contains_pattern(v_q);
  v_names := format('(r.scammer_name ilike %L or r.business_name ilike %L)', v_pattern, v_pattern);
  v_match := format('r.status = ''published'' and r.merged_into is null and r.id is distinct from %L::uuid',
    exclude);
  v_newest := format('select r.id::text from public.scammer_reports r where %s and %s
    order by r.reviewed_at desc, r.id limit 8', v_match, v_names);
  if v_q !~ '[[:alnum:]]{3}' then
    v_ids := private.count_first_ids(v_newest, true);
  else
    -- Count through the names' trigram indexes, up to the cap; sort the few, read by id, or read the many
    -- most recently reviewed first until eight are found (count_first.sql). The names' condition alone
    -- leads the count (offset 0 keeps the others out): with them, an index whose own condition is
    -- `status = 'published'` could offer every published report as the candidates.
    v_cap := private.count_first_cap('public.scammer_reports', 8);
    v_ids := private.count_first_page(
      format('select r.id::text from (select r.id, r.status, r.merged_into from public.scammer_reports r
        where %s offset 0) r where %s limit %s', v_names, v_match, v_cap + 1),
      'select r.id::text from public.scammer_reports r where r.id = any(%L::uuid[])
        order by r.reviewed_at desc, r.id limit 8',
      v_newest, v_cap);
  end if;
  return query
    select r.id, r.scammer_name, r.business_name, r.reviewed_at
    from unnest(v_ids::uuid[]) with ordinality as m (id, n)
    join public.scammer_reports r on r.id = m.id
    order by m.n;
end
$$;

comment on function public.admin_find_merge_targets(text, uuid) is
  'Admins: published reports, not merged, whose scammer or business name holds q, newest review first (decision 258).';
