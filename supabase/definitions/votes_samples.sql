-- Sample catalogue (PRODUCT-CONVENTIONS item 5): a fresh install shows a few clearly labelled sample
-- products so Pass or Gas is not empty. load = true adds them only while the catalogue has neither
-- real nor sample products; load = false retires them (deleted, or archived when members' rows name
-- them: decision 175). The first real product retires them; nothing else does.

create or replace function private.votes_samples(load boolean) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_brand uuid;
begin
  if not load then
    -- Retirement (decision 175): only this area's samples (the products and their sample brand, never
    -- the brand directory's); a sample carrying members' votes or comments from before the guards
    -- (samples_rule.sql) is archived, never deleted with them.
    update public.products p set archived_at = now()
    where p.is_sample and p.archived_at is null and private.samples_product_in_use(p.id);
    delete from public.products p where p.is_sample and not private.samples_product_in_use(p.id);
    perform private.samples_retire_brands(array['sample-brand-example']);
    return;
  end if;
  if exists (select 1 from public.products) then
    return;
  end if;
  insert into public.brands (name, slug, is_sample)
  values ('Sample Brand (example)', 'sample-brand-example', true)
  on conflict (slug) do nothing;
  select b.id into v_brand from public.brands b where b.slug = 'sample-brand-example';
  insert into public.products (name, brand_id, category, strain_type, thc_min, thc_max, cbd_min, cbd_max, description, is_sample)
  values
    ('Sample product: Example Kush', v_brand, 'Flower', 'indica', 18, 22, 0, 1,
      'A sample product so a new site is not empty. It is not a real product; it disappears when an admin adds the first real one.', true),
    ('Sample product: Demo Haze', v_brand, 'Flower', 'sativa', 20, 24, 0, 0.5,
      'A sample product so a new site is not empty. It is not a real product.', true),
    ('Sample product: Placeholder Live Resin', v_brand, 'Concentrates', 'hybrid', 70, 80, 0, 2,
      'A sample product so a new site is not empty. It is not a real product.', true),
    ('Sample product: Example Gummies', v_brand, 'Edibles', 'n/a', null, null, null, null,
      'A sample product so a new site is not empty. It is not a real product.', true),
    ('Sample product: Demo Cartridge', v_brand, 'Vape Cartridges', 'hybrid', 80, 88, 0, 1,
      'A sample product so a new site is not empty. It is not a real product.', true),
    ('Sample product: Example Balm', v_brand, 'Topicals', 'n/a', 0, 1, 5, 10,
      'A sample product so a new site is not empty. It is not a real product.', true);
end
$$;
revoke all on function private.votes_samples(boolean) from public;

-- Once per statement that adds a real product (a bulk import retires the samples once, not per row),
-- and only while samples are left (products_is_sample_idx answers that without reading the table).
create or replace function private.votes_real_product_arrived() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if exists (select 1 from arrived where not arrived.is_sample)
    and exists (select 1 from public.products p where p.is_sample) then
    perform private.votes_samples(false);
  end if;
  return null;
end
$$;
revoke all on function private.votes_real_product_arrived() from public;
drop trigger if exists votes_real_product_arrived on public.products;
create trigger votes_real_product_arrived after insert on public.products
  referencing new table as arrived
  for each statement execute function private.votes_real_product_arrived();
