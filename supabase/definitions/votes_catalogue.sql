-- Pass or Gas catalogue (product §pass-or-gas, decision 115): who may read and write brands, products,
-- tallies and the votes-per-day series, and the tally row every product starts with.

-- brands: anyone reads; admins write (the brand directory adds its own rules).
drop policy if exists "brands: anyone reads" on public.brands;
create policy "brands: anyone reads" on public.brands
  for select to anon, authenticated using (true);
drop policy if exists "brands: admins add" on public.brands;
create policy "brands: admins add" on public.brands
  for insert to authenticated with check ((select public.has_role('admin')));
drop policy if exists "brands: admins edit" on public.brands;
create policy "brands: admins edit" on public.brands
  for update to authenticated using ((select public.has_role('admin'))) with check ((select public.has_role('admin')));
drop policy if exists "brands: admins delete" on public.brands;
create policy "brands: admins delete" on public.brands
  for delete to authenticated using ((select public.has_role('admin')));

create or replace trigger guard_timestamps before insert or update on public.brands
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger touch_updated_at before update on public.brands
  for each row execute function private.touch_updated_at();

-- products: anyone reads the live catalogue; admins also see archived products and write.
drop policy if exists "products: anyone reads live, admins all" on public.products;
create policy "products: anyone reads live, admins all" on public.products
  for select to anon, authenticated
  using (archived_at is null or (select public.has_role('admin')));
drop policy if exists "products: admins add" on public.products;
create policy "products: admins add" on public.products
  for insert to authenticated with check ((select public.has_role('admin')));
drop policy if exists "products: admins edit" on public.products;
create policy "products: admins edit" on public.products
  for update to authenticated using ((select public.has_role('admin'))) with check ((select public.has_role('admin')));
drop policy if exists "products: admins delete" on public.products;
create policy "products: admins delete" on public.products
  for delete to authenticated using ((select public.has_role('admin')));

create or replace trigger guard_timestamps before insert or update on public.products
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger guard_immutable before update on public.products
  for each row execute function private.guard_immutable('id');
create or replace trigger touch_updated_at before update on public.products
  for each row execute function private.touch_updated_at();

-- Every product has its tally row from the start, so the lists join rather than outer-join.
create or replace function private.votes_product_created() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.product_tallies (product_id) values (new.id) on conflict (product_id) do nothing;
  return null;
end
$$;
revoke all on function private.votes_product_created() from public;
create or replace trigger votes_product_created after insert on public.products
  for each row execute function private.votes_product_created();

-- Tallies and the per-day series: anyone reads; only the triggers write (no write policy).
drop policy if exists "product_tallies: anyone reads" on public.product_tallies;
create policy "product_tallies: anyone reads" on public.product_tallies
  for select to anon, authenticated using (true);
drop policy if exists "product_vote_days: anyone reads" on public.product_vote_days;
create policy "product_vote_days: anyone reads" on public.product_vote_days
  for select to anon, authenticated using (true);

-- Admin changes to the catalogue are audited where the audit trigger exists (decision 101's
-- private.audit_row_change, built by the admin area).
do $$
begin
  if to_regproc('private.audit_row_change') is not null then
    execute 'create or replace trigger audit after insert or update or delete on public.products
      for each row execute function private.audit_row_change()';
    execute 'create or replace trigger audit after insert or update or delete on public.brands
      for each row execute function private.audit_row_change()';
  end if;
end
$$;
