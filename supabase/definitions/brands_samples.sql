-- Sample brands (product §samples, §brand-directory): a fresh install shows a few clearly labelled
-- sample brands so the directory is not empty. load = true adds them only while there is no real
-- brand and no sample of this area yet; load = false retires this area's sample brands (decision 175;
-- Pass or Gas retires its own sample brand with its products). The first real brand retires them.
-- Their names say "(sample)" and they carry is_sample.

create or replace function private.brands_samples(load boolean) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if not load then
    -- Retirement (decision 175): this area's four brands only; one that a report, claim or product
    -- names (written before the guards of samples_rule.sql) is archived, never deleted.
    perform private.samples_retire_brands(array(
      select b.slug from public.brands b where b.is_sample and b.slug like 'sample-%-brand'));
    return;
  end if;
  if exists (select 1 from public.brands b where not b.is_sample)
     or exists (select 1 from public.brands b where b.is_sample and b.slug like 'sample-%-brand') then
    return;
  end if;
  insert into public.brands (name, slug, description, states, city, categories, website, licence_number,
    licence_state, licence_type, is_sample)
  values
    ('Green Thumb Collective (sample)', 'sample-green-thumb-brand',
      'A sample brand so a new directory is not empty. It is not a real business; it disappears when an admin adds the first real brand.',
      '{CA}', 'Oakland', '{Flower,Edibles}', null, 'SAMPLE-0001', 'CA', 'Adult-use cultivation (sample)', true),
    ('Coastal Extracts (sample)', 'sample-coastal-extracts-brand',
      'A sample brand so a new directory is not empty. It is not a real business.',
      '{OR,WA}', 'Portland', '{Concentrates,Vape Cartridges}', null, 'SAMPLE-0002', 'OR', 'Processor (sample)', true),
    ('Mile High Edibles (sample)', 'sample-mile-high-edibles-brand',
      'A sample brand so a new directory is not empty. It is not a real business.',
      '{CO}', 'Denver', '{Edibles}', null, null, null, null, true),
    ('Lakeside Topicals (sample)', 'sample-lakeside-topicals-brand',
      'A sample brand so a new directory is not empty. It is not a real business.',
      '{MI}', 'Ann Arbor', '{Topicals,Accessories}', null, 'SAMPLE-0004', 'MI', 'Processor (sample)', true)
  on conflict (slug) do nothing;
end
$$;
revoke all on function private.brands_samples(boolean) from public;

-- Once per statement that adds a real brand, and only while samples are left (brands_is_sample_idx).
create or replace function private.brands_real_brand_arrived() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if exists (select 1 from arrived where not arrived.is_sample)
    and exists (select 1 from public.brands b where b.is_sample) then
    perform private.brands_samples(false);
  end if;
  return null;
end
$$;
revoke all on function private.brands_real_brand_arrived() from public;
drop trigger if exists brands_real_brand_arrived on public.brands;
create trigger brands_real_brand_arrived after insert on public.brands
  referencing new table as arrived
  for each statement execute function private.brands_real_brand_arrived();
