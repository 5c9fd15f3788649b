-- Market data (product §market-index): everyone reads; admins change constituents; everything else is
-- written by the server and the admin RPCs (security definer), never directly through the API.
do $$
declare t text;
begin
  foreach t in array array['market_indices', 'index_points', 'index_point_revisions', 'flower_price_observations',
                           'market_securities', 'market_constituents', 'market_closes', 'market_close_revisions']
  loop
    execute format('drop policy if exists "everyone reads" on public.%I', t);
    execute format('create policy "everyone reads" on public.%I for select to anon, authenticated using (true)', t);
  end loop;
end
$$;

drop policy if exists "admins add constituents" on public.market_constituents;
create policy "admins add constituents" on public.market_constituents for insert to authenticated
  with check ((select public.has_role('admin')));
drop policy if exists "admins change constituents" on public.market_constituents;
create policy "admins change constituents" on public.market_constituents for update to authenticated
  using ((select public.has_role('admin'))) with check ((select public.has_role('admin')));
drop policy if exists "admins remove constituents" on public.market_constituents;
create policy "admins remove constituents" on public.market_constituents for delete to authenticated
  using ((select public.has_role('admin')));

create or replace trigger audit after insert or update or delete on public.market_constituents
  for each row execute function private.audit_row_change();
