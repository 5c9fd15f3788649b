-- The sample-retirement rule (decision 175, product §samples; decision 105 made the samples).
--
-- Samples are deleted when real content of their area arrives, so nothing of a member may hang on
-- them: members cannot vote on, comment on, claim, report against or save a sample, and a real product
-- cannot belong to a sample brand. The guards below refuse such writes with one clear message, for
-- everyone (admins and the server included), whatever path the row takes. Retirement itself is per
-- area (*_samples.sql), and a sample that still carries a member's row (written before this rule) is
-- archived instead of deleted, so retirement never cascades into members' rows.
-- public.sample_retirement() tells admins what will go, and when, before it happens.

-- Refuses a row that names a sample. Arguments: what the column names ('product', 'brand' or
-- 'article'), the column of the row, and the refusal. A row that is itself a sample passes (the
-- sample catalogue's products belong to its sample brand); an update passes unless it changes the
-- column.
create or replace function private.samples_guard() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_row jsonb := to_jsonb(new);
  v_ref text := v_row ->> tg_argv[1];
  v_sample boolean;
begin
  if v_ref is null or coalesce((v_row ->> 'is_sample')::boolean, false) then
    return new;
  end if;
  if tg_op = 'UPDATE' and v_ref is not distinct from (to_jsonb(old) ->> tg_argv[1]) then
    return new;
  end if;
  v_sample := case tg_argv[0]
    when 'product' then exists (select 1 from public.products p where p.id = v_ref and p.is_sample)
    when 'brand' then exists (select 1 from public.brands b where b.id = v_ref::uuid and b.is_sample)
    when 'article' then exists (select 1 from public.news_articles a where a.is_sample and a.url = v_ref)
  end;
  if v_sample then
    raise exception using errcode = 'insufficient_privilege', message = tg_argv[2],
      hint = 'Samples are examples: they are deleted when real content of their kind arrives.';
  end if;
  return new;
end
$$;
comment on function private.samples_guard() is
  'Trigger: refuses a row that would attach to a sample (decision 175).';
revoke all on function private.samples_guard() from public;

create or replace trigger samples_guard before insert on public.product_votes
  for each row execute function private.samples_guard('product', 'product_id',
    'Sample products cannot be voted on: they are examples, deleted when the first real product is added.');
create or replace trigger samples_guard before insert on public.product_comments
  for each row execute function private.samples_guard('product', 'product_id',
    'Sample products cannot be commented on: they are examples, deleted when the first real product is added.');
create or replace trigger samples_guard before insert or update of brand_id on public.products
  for each row execute function private.samples_guard('brand', 'brand_id',
    'A real product cannot belong to a sample brand: sample brands are deleted when real content arrives. Choose a real brand.');
create or replace trigger samples_guard before insert on public.brand_claims
  for each row execute function private.samples_guard('brand', 'brand_id',
    'Sample brands cannot be claimed: they are examples, deleted when real brands are added.');
create or replace trigger samples_guard before insert or update of brand_id on public.scammer_reports
  for each row execute function private.samples_guard('brand', 'brand_id',
    'A report cannot name a sample brand: sample brands are examples, deleted when real brands are added.');
create or replace trigger samples_guard before insert on public.saved_articles
  for each row execute function private.samples_guard('article', 'article_url',
    'Sample articles cannot be saved: they are examples, deleted when the first real article arrives.');

-- Whether a sample still carries someone's rows (only possible for rows written before the guards):
-- such a sample is archived at retirement, never deleted.
create or replace function private.samples_product_in_use(p_product text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from public.product_votes v where v.product_id = p_product)
      or exists (select 1 from public.product_comments c where c.product_id = p_product)
$$;
revoke all on function private.samples_product_in_use(text) from public;

create or replace function private.samples_brand_in_use(p_brand uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from public.products p
                 where p.brand_id = p_brand and (not p.is_sample or p.archived_at is not null))
      or exists (select 1 from public.scammer_reports r where r.brand_id = p_brand)
      or exists (select 1 from public.brand_claims c where c.brand_id = p_brand)
$$;
revoke all on function private.samples_brand_in_use(uuid) from public;

-- Retires sample brands (the slugs given): those nothing uses are deleted, the others archived (they
-- leave the directory; the rows that name them keep their link). A brand that live sample products
-- still show stays until those retire (the Pass or Gas area's own sample brand).
create or replace function private.samples_retire_brands(p_slugs text[]) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  update public.brands b set archived_at = now()
  where b.is_sample and b.slug = any (p_slugs) and b.archived_at is null
    and private.samples_brand_in_use(b.id);
  delete from public.brands b
  where b.is_sample and b.slug = any (p_slugs) and not private.samples_brand_in_use(b.id)
    and not exists (select 1 from public.products p where p.brand_id = b.id and p.archived_at is null);
end
$$;
revoke all on function private.samples_retire_brands(text[]) from public;

-- What each area's retirement will remove, for the admin pages (product §samples): one row per area
-- that holds samples, with when it happens and each item; `kept` marks a sample that carries members'
-- rows from before the guards and will be archived instead of deleted.
drop function if exists public.sample_retirement();
create or replace function public.sample_retirement()
returns table (area text, retires_when text, items jsonb)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not public.has_role('admin') then
    raise exception using errcode = 'insufficient_privilege', message = 'Only admins can see the sample plan.';
  end if;
  return query
  select x.area, x.retires_when, x.items
  from (
    select 'products'::text as area, 'when the first real product is added'::text as retires_when,
      (select jsonb_agg(i.item order by i.ord, i.item ->> 'name') from (
         select 1 as ord, jsonb_build_object('kind', 'product', 'name', p.name,
           'kept', private.samples_product_in_use(p.id)) as item
         from public.products p where p.is_sample and p.archived_at is null
         union all
         select 2, jsonb_build_object('kind', 'brand', 'name', b.name,
           'kept', private.samples_brand_in_use(b.id) or exists (select 1 from public.products p
             where p.brand_id = b.id and p.is_sample and private.samples_product_in_use(p.id)))
         from public.brands b where b.is_sample and b.slug = 'sample-brand-example' and b.archived_at is null
       ) i) as items
    union all
    select 'brands', 'when the first real brand is added',
      (select jsonb_agg(jsonb_build_object('kind', 'brand', 'name', b.name,
           'kept', private.samples_brand_in_use(b.id)) order by b.name)
       from public.brands b where b.is_sample and b.slug like 'sample-%-brand' and b.archived_at is null)
    union all
    select 'news', 'when the first real article arrives from a news source',
      (select jsonb_agg(jsonb_build_object('kind', 'article', 'name', a.title, 'kept', false) order by a.published_at desc)
       from public.news_articles a where a.is_sample)
    union all
    select 'market', 'when the first real closes are imported',
      (select jsonb_build_array(jsonb_build_object('kind', 'series',
           'name', format('Demonstration series (%s closes)', count(*)), 'kept', false))
       from public.market_closes c where c.is_sample having count(*) > 0)
  ) x
  where x.items is not null;
end
$$;
revoke all on function public.sample_retirement() from public;
grant execute on function public.sample_retirement() to authenticated, service_role;
comment on function public.sample_retirement() is
  'Admins: the sample content of each area, what retires it, and which samples are kept (archived) because members'' rows name them.';
