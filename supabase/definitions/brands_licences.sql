-- A brand's licences (product §brand-directory, decision 151): everyone reads them; only admins add,
-- edit, verify, promote and remove them (representatives edit description, logo and links only).
-- Each licence has its own verification, stamped with who and when. The primary licence is mirrored
-- into public.brands' licence_* and verification columns, and a write of those columns (the admin
-- brand form before this table, seeds, the bench) is carried into the primary licence, so both stay
-- one answer. Every change is audited.

drop policy if exists "brand_licences: anyone reads" on public.brand_licences;
create policy "brand_licences: anyone reads" on public.brand_licences
  for select to anon, authenticated using (true);
drop policy if exists "brand_licences: admins add" on public.brand_licences;
create policy "brand_licences: admins add" on public.brand_licences
  for insert to authenticated with check ((select public.has_role('admin')));
drop policy if exists "brand_licences: admins edit" on public.brand_licences;
create policy "brand_licences: admins edit" on public.brand_licences
  for update to authenticated
  using ((select public.has_role('admin'))) with check ((select public.has_role('admin')));
drop policy if exists "brand_licences: admins remove" on public.brand_licences;
create policy "brand_licences: admins remove" on public.brand_licences
  for delete to authenticated using ((select public.has_role('admin')));

-- Whether this write is the mirror between brands and brand_licences (set by the two functions below
-- for their own statements; a trigger depth above 1 means it is not a client's statement).
create or replace function private.brand_licences_syncing() returns boolean
language sql stable set search_path = ''
as $$
  select coalesce(current_setting('brands.licence_sync', true), '') = 'on' and pg_trigger_depth() > 1
$$;
revoke all on function private.brand_licences_syncing() from public;
grant execute on function private.brand_licences_syncing() to anon, authenticated, service_role;

-- Copy the brand's primary licence into its brands row (promoting the oldest licence when none is
-- primary; no licence at all clears the columns).
create or replace function private.brand_licences_mirror(p_brand uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_before text := coalesce(current_setting('brands.licence_sync', true), '');
  v_licence public.brand_licences;
begin
  perform set_config('brands.licence_sync', 'on', true);
  if not exists (select 1 from public.brand_licences l where l.brand_id = p_brand and l.is_primary) then
    update public.brand_licences l set is_primary = true
    where l.id = (select o.id from public.brand_licences o where o.brand_id = p_brand order by o.created_at, o.id limit 1);
  end if;
  select l.* into v_licence from public.brand_licences l where l.brand_id = p_brand and l.is_primary;
  update public.brands b set
    licence_number = v_licence.number,
    licence_state = v_licence.state,
    licence_type = v_licence.type,
    licence_expires_on = v_licence.expires_on,
    verification = coalesce(v_licence.verification, 'unverified'),
    verified_at = v_licence.verified_at,
    verified_by = v_licence.verified_by,
    verification_note = v_licence.verification_note
  where b.id = p_brand
    and (b.licence_number, b.licence_state, b.licence_type, b.licence_expires_on, b.verification, b.verified_at,
         b.verified_by, b.verification_note)
      is distinct from (v_licence.number, v_licence.state, v_licence.type, v_licence.expires_on,
         coalesce(v_licence.verification, 'unverified'), v_licence.verified_at, v_licence.verified_by,
         v_licence.verification_note);
  perform set_config('brands.licence_sync', v_before, true);
end
$$;
revoke all on function private.brand_licences_mirror(uuid) from public;

-- Every write of a licence: at most 20 per brand; the brand stays; verification stamped with who and
-- when; a changed number, state or type is no longer verified unless the same write verifies it again;
-- a licence made primary demotes the brand's previous one.
create or replace function private.brand_licences_guard() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if private.brand_licences_syncing() then
    return new;
  end if;
  if tg_op = 'INSERT' then
    perform 1 from public.brands b where b.id = new.brand_id for update;
    if (select count(*) from public.brand_licences l where l.brand_id = new.brand_id) >= 20 then
      raise exception using errcode = 'check_violation', constraint = 'brand_licences_per_brand',
        message = 'A brand lists at most 20 licences.';
    end if;
  end if;
  -- Who verified is stamped below, never written by a client.
  if not private.is_privileged() then
    new.verified_by := case when tg_op = 'UPDATE' then old.verified_by end;
  end if;
  if tg_op = 'UPDATE' and new.verification = 'verified' and old.verification = 'verified'
     and (new.number, new.state, new.type) is distinct from (old.number, old.state, old.type)
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
      raise exception using errcode = 'check_violation', constraint = 'brand_licences_verified_at_not_future',
        message = 'The verification date cannot be in the future.';
    end if;
  elsif new.verification = 'unverified' then
    new.verified_at := null;
    new.verified_by := null;
  end if;
  if new.is_primary and (tg_op = 'INSERT' or not old.is_primary) then
    perform set_config('brands.licence_sync', 'on', true);
    update public.brand_licences l set is_primary = false
    where l.brand_id = new.brand_id and l.is_primary and l.id <> new.id;
    perform set_config('brands.licence_sync', '', true);
  end if;
  return new;
end
$$;
revoke all on function private.brand_licences_guard() from public;
create or replace trigger brand_licences_guard before insert or update on public.brand_licences
  for each row execute function private.brand_licences_guard();
create or replace trigger guard_timestamps before insert or update on public.brand_licences
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger guard_immutable before update on public.brand_licences
  for each row execute function private.guard_immutable('id', 'brand_id', 'created_at');
create or replace trigger touch_updated_at before update on public.brand_licences
  for each row execute function private.touch_updated_at();

create or replace function private.brand_licences_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if coalesce(current_setting('brands.licence_sync', true), '') = 'on' then
    return null;
  end if;
  perform private.brand_licences_mirror(coalesce(new.brand_id, old.brand_id));
  return null;
end
$$;
revoke all on function private.brand_licences_changed() from public;
create or replace trigger brand_licences_changed after insert or update or delete on public.brand_licences
  for each row execute function private.brand_licences_changed();

-- A write of a brand's licence columns (not by the mirror) is the primary licence's: the licence with
-- that state and number becomes primary with these values, else the primary licence takes them, else
-- one is added. Clearing the number removes the primary licence (the next one is promoted).
create or replace function private.brands_licence_written() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_target uuid;
begin
  if coalesce(current_setting('brands.licence_sync', true), '') = 'on' then
    return null;
  end if;
  perform set_config('brands.licence_sync', 'on', true);
  if new.licence_number is null or new.licence_state is null then
    delete from public.brand_licences l where l.brand_id = new.id and l.is_primary;
    if found then
      perform private.brand_licences_mirror(new.id);
    end if;
  else
    select l.id into v_target from public.brand_licences l
    where l.brand_id = new.id and l.state = new.licence_state and upper(l.number) = upper(new.licence_number);
    if v_target is null then
      select l.id into v_target from public.brand_licences l where l.brand_id = new.id and l.is_primary;
    end if;
    update public.brand_licences l set is_primary = false
    where l.brand_id = new.id and l.is_primary and l.id is distinct from v_target;
    if v_target is null then
      insert into public.brand_licences (brand_id, number, state, type, expires_on, verification, verified_at,
        verified_by, verification_note, is_primary)
      values (new.id, new.licence_number, new.licence_state, new.licence_type, new.licence_expires_on,
        new.verification, new.verified_at, new.verified_by, new.verification_note, true);
    else
      update public.brand_licences l set
        number = new.licence_number, state = new.licence_state, type = new.licence_type,
        expires_on = new.licence_expires_on, verification = new.verification, verified_at = new.verified_at,
        verified_by = new.verified_by, verification_note = new.verification_note, is_primary = true
      where l.id = v_target
        and (l.number, l.state, l.type, l.expires_on, l.verification, l.verified_at, l.verified_by,
             l.verification_note, l.is_primary)
          is distinct from (new.licence_number, new.licence_state, new.licence_type, new.licence_expires_on,
             new.verification, new.verified_at, new.verified_by, new.verification_note, true);
    end if;
  end if;
  perform set_config('brands.licence_sync', '', true);
  return null;
end
$$;
revoke all on function private.brands_licence_written() from public;
create or replace trigger brands_licence_written
  after insert or update of licence_number, licence_state, licence_type, licence_expires_on, verification,
    verified_at, verified_by, verification_note on public.brands
  for each row execute function private.brands_licence_written();

create or replace trigger audit after insert or update or delete on public.brand_licences
  for each row execute function private.audit_row_change();
