-- Brand directory (product §brand-directory, decisions 119–121): who may write brands and claims, the
-- representatives' column limit, licence verification stamping, the brands' community tallies, claim
-- decisions with their notification, and the audit triggers. Reading policies for brands (anyone
-- reads) and the admins' write policies live in votes_catalogue.sql, which created the table.

-- Whether the caller is an approved representative of the brand (SECURITY DEFINER: brand_claims is
-- not readable by everyone, and the brands policy below asks for every row it checks).
create or replace function private.brands_is_representative(brand uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select (select auth.uid()) is not null and exists (
    select 1 from public.brand_claims c
    where c.brand_id = brands_is_representative.brand and c.user_id = (select auth.uid()) and c.status = 'approved'
  )
$$;
revoke all on function private.brands_is_representative(uuid) from public;
grant execute on function private.brands_is_representative(uuid) to anon, authenticated, service_role;

-- Representatives edit their own live brand; brands_guard_write below limits which columns.
drop policy if exists "brands: representatives edit their brand" on public.brands;
create policy "brands: representatives edit their brand" on public.brands
  for update to authenticated
  using (archived_at is null and private.brands_is_representative(id))
  with check (private.brands_is_representative(id));

-- Every write: representatives change only description, logo and links (product §brand-directory);
-- verification is stamped with who and when; `verified` mirrors the verification status; a changed
-- licence is no longer verified unless the same write verifies it again.
create or replace function private.brands_guard_write() returns trigger
language plpgsql set search_path = ''
as $$
declare
  v_admin boolean := private.is_privileged() or public.has_role('admin');
begin
  -- The primary licence mirrored from brand_licences (brands_licences.sql) is already stamped there.
  if tg_op = 'UPDATE' and private.brand_licences_syncing() then
    new.verified := coalesce(new.verification = 'verified', false);
    return new;
  end if;
  if tg_op = 'UPDATE' and not v_admin then
    if (to_jsonb(new) - array['description', 'logo_url', 'website', 'social_links', 'updated_at'])
       is distinct from (to_jsonb(old) - array['description', 'logo_url', 'website', 'social_links', 'updated_at']) then
      raise exception using errcode = 'insufficient_privilege',
        message = 'Representatives may change only the description, logo and links of their brand.';
    end if;
    return new;
  end if;
  -- Who verified is stamped below, never written by a client (an admin's API write included).
  if not private.is_privileged() then
    new.verified_by := case when tg_op = 'UPDATE' then old.verified_by end;
  end if;
  if tg_op = 'UPDATE' and new.verification = 'verified' and old.verification = 'verified'
     and (new.licence_number, new.licence_state, new.licence_type)
       is distinct from (old.licence_number, old.licence_state, old.licence_type)
     and new.verified_at is not distinct from old.verified_at then
    new.verification := 'unverified';
  end if;
  if new.verification = 'verified' then
    if tg_op = 'INSERT' or old.verification is distinct from 'verified'
       or new.verified_at is distinct from old.verified_at
       or new.verification_note is distinct from old.verification_note then
      new.verified_at := coalesce(new.verified_at, now());
      if not private.is_privileged() then
        new.verified_by := (select auth.uid());
      end if;
    end if;
    if new.verified_at > now() + interval '1 day' then
      raise exception using errcode = 'check_violation', constraint = 'brands_verified_at_not_future',
        message = 'The verification date cannot be in the future.';
    end if;
  elsif new.verification = 'unverified' then
    new.verified_at := null;
    new.verified_by := null;
  end if;
  new.verified := coalesce(new.verification = 'verified', false);
  return new;
end
$$;
revoke all on function private.brands_guard_write() from public;
create or replace trigger brands_guard_write before insert or update on public.brands
  for each row execute function private.brands_guard_write();
create or replace trigger guard_immutable_brand before update on public.brands
  for each row execute function private.guard_immutable('id', 'is_sample');

-- ---------------------------------------------------------------------------------------------------
-- Community tallies per brand (brand_tallies): recomputed when a product joins, leaves or is archived,
-- and within a second of a vote on one of its products (private.votes_broadcast_tallies, decision 159).
-- ---------------------------------------------------------------------------------------------------
create or replace function private.brands_refresh_tally(brand uuid) returns void
language sql volatile security definer set search_path = ''
as $$
  insert into public.brand_tallies as bt (brand_id, products, gas, pass, updated_at)
  select b.id,
    count(p.id),
    coalesce(sum(t.gas), 0),
    coalesce(sum(t.pass), 0),
    now()
  from public.brands b
  left join public.products p on p.brand_id = b.id and p.archived_at is null
  left join public.product_tallies t on t.product_id = p.id
  where b.id = brands_refresh_tally.brand
  group by b.id
  on conflict (brand_id) do update set
    products = excluded.products, gas = excluded.gas, pass = excluded.pass, updated_at = excluded.updated_at
  -- The live-tallies run refreshes a brand when any of its products was marked, also for a vote that
  -- only moved `pending` or `held`: a row whose sums did not change is not written again.
  where (bt.products, bt.gas, bt.pass) is distinct from (excluded.products, excluded.gas, excluded.pass)
$$;
revoke all on function private.brands_refresh_tally(uuid) from public;

-- A product moving between brands refreshes both, in brand order: the order the live-tallies run
-- (private.votes_broadcast_tallies) locks brand rows in, so the two never wait on each other in a cycle
-- (a deadlock would abort one of them: an admin's move or merge, or a second of live tallies).
create or replace function private.brands_product_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_old uuid := case when tg_op in ('UPDATE', 'DELETE') then old.brand_id end;
  v_new uuid := case when tg_op in ('INSERT', 'UPDATE') then new.brand_id end;
begin
  perform private.brands_refresh_tally(b.id)
  from (select distinct x.id from unnest(array[v_old, v_new]) as x(id) where x.id is not null order by x.id) b;
  return null;
end
$$;
revoke all on function private.brands_product_changed() from public;
create or replace trigger brands_product_changed after insert or delete on public.products
  for each row execute function private.brands_product_changed();
create or replace trigger brands_product_moved after update of brand_id, archived_at on public.products
  for each row when (old.brand_id is distinct from new.brand_id or old.archived_at is distinct from new.archived_at)
  execute function private.brands_product_changed();

create or replace function private.brands_brand_created() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.brand_tallies (brand_id) values (new.id) on conflict (brand_id) do nothing;
  return null;
end
$$;
revoke all on function private.brands_brand_created() from public;
create or replace trigger brands_brand_created after insert on public.brands
  for each row execute function private.brands_brand_created();

drop policy if exists "brand_tallies: anyone reads" on public.brand_tallies;
create policy "brand_tallies: anyone reads" on public.brand_tallies
  for select to anon, authenticated using (true);

-- ---------------------------------------------------------------------------------------------------
-- Claims: a member asks for their own live brand; they read and withdraw their own pending claims;
-- admins read all and decide. The claimant is notified of the decision.
-- ---------------------------------------------------------------------------------------------------
drop policy if exists "brand_claims: own or admins read" on public.brand_claims;
create policy "brand_claims: own or admins read" on public.brand_claims
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')));
drop policy if exists "brand_claims: members claim as themselves" on public.brand_claims;
create policy "brand_claims: members claim as themselves" on public.brand_claims
  for insert to authenticated
  with check (user_id = (select auth.uid()) and status = 'pending');
drop policy if exists "brand_claims: admins decide" on public.brand_claims;
create policy "brand_claims: admins decide" on public.brand_claims
  for update to authenticated
  using ((select public.has_role('admin'))) with check ((select public.has_role('admin')));
drop policy if exists "brand_claims: withdraw own pending, admins delete" on public.brand_claims;
create policy "brand_claims: withdraw own pending, admins delete" on public.brand_claims
  for delete to authenticated
  using ((user_id = (select auth.uid()) and status = 'pending') or (select public.has_role('admin')));

create or replace function private.brands_guard_claim() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if not exists (select 1 from public.brands b where b.id = new.brand_id and b.archived_at is null) then
      raise exception using errcode = 'check_violation', constraint = 'brand_claims_brand_live',
        message = 'This brand is archived and cannot be claimed.';
    end if;
    if exists (
      select 1 from public.brand_claims c
      where c.brand_id = new.brand_id and c.user_id = new.user_id and c.status in ('pending', 'approved')
    ) then
      raise exception using errcode = 'unique_violation', constraint = 'brand_claims_open_key',
        message = 'You already have a pending or approved claim for this brand.';
    end if;
    if not private.is_privileged() then
      new.decided_by := null;
      new.decided_at := null;
      new.decision_note := null;
    end if;
    return new;
  end if;
  if new.brand_id is distinct from old.brand_id and not private.is_privileged() then
    -- Only brands_merge (SECURITY DEFINER) moves claims.
    raise exception using errcode = 'insufficient_privilege', message = 'A claim stays with its brand.';
  end if;
  if new.status is distinct from old.status then
    if not (old.status = 'pending' and new.status in ('approved', 'rejected'))
       and not (old.status = 'approved' and new.status = 'revoked') then
      raise exception using errcode = 'check_violation', constraint = 'brand_claims_status_flow',
        message = format('A %s claim cannot become %s.', old.status, new.status);
    end if;
    new.decided_at := now();
    new.decided_by := (select auth.uid());
  end if;
  return new;
end
$$;
revoke all on function private.brands_guard_claim() from public;
create or replace trigger brands_guard_claim before insert or update on public.brand_claims
  for each row execute function private.brands_guard_claim();
create or replace trigger guard_timestamps before insert or update on public.brand_claims
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger guard_immutable before update on public.brand_claims
  for each row execute function private.guard_immutable('id', 'user_id', 'created_at');
create or replace trigger touch_updated_at before update on public.brand_claims
  for each row execute function private.touch_updated_at();

create or replace function private.brands_claim_decided() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_brand record;
begin
  select b.name, b.slug into v_brand from public.brands b where b.id = new.brand_id;
  perform private.notify(
    new.user_id,
    'brand.claim',
    case new.status
      when 'approved' then 'Your claim for ' || v_brand.name || ' was approved'
      when 'rejected' then 'Your claim for ' || v_brand.name || ' was not approved'
      else 'You no longer represent ' || v_brand.name end,
    case new.status
      when 'approved' then 'You can now edit the description, logo and links of ' || v_brand.name || '.'
      when 'rejected' then coalesce(nullif(new.decision_note, ''), 'An admin could not confirm that you represent this brand.')
      else coalesce(nullif(new.decision_note, ''), 'An admin ended your representative access.') end,
    '/brand-directory/' || v_brand.slug
  );
  return null;
end
$$;
revoke all on function private.brands_claim_decided() from public;
create or replace trigger brands_claim_decided after update of status on public.brand_claims
  for each row when (old.status is distinct from new.status and new.status in ('approved', 'rejected', 'revoked'))
  execute function private.brands_claim_decided();

-- Admin actions on claims are audited (brands are audited by votes_catalogue.sql's trigger).
create or replace trigger audit after insert or update or delete on public.brand_claims
  for each row execute function private.audit_row_change();
create or replace trigger audit after insert or update or delete on public.brands
  for each row execute function private.audit_row_change();
