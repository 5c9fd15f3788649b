-- Two account rules at SQL level: policies that need a second factor (decision 096), and one free
-- trial per mailbox, ever (decision 097).

-- ---------------------------------------------------------------------------------------------------
-- private.requires_aal2(): true when the caller's session meets the assurance MFA asks of it — the
-- access token says aal2, or the account has no verified factor (nothing to step up with). Use it in a
-- policy for what a password alone must not do once a member turned MFA on, best as a restrictive
-- policy so it is ANDed with the table's other policies:
--
--   create policy "payouts: MFA members need aal2" on public.payouts as restrictive
--     for all to authenticated using ((select private.requires_aal2()))
--     with check ((select private.requires_aal2()));
--
-- The auth service applies the same rule to email and password changes and to removing a verified
-- factor (GoTrue's insufficient_aal). Visitors (no user) never meet it.
-- ---------------------------------------------------------------------------------------------------

create or replace function private.requires_aal2() returns boolean
language sql stable security definer set search_path = ''
as $$
  select (select auth.uid()) is not null and (
    coalesce((select auth.jwt()) ->> 'aal', 'aal1') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
      where f.user_id = (select auth.uid()) and f.status = 'verified'
    )
  )
$$;
comment on function private.requires_aal2() is
  'Whether the caller''s session has the assurance level MFA requires: aal2, or no verified factor. For policies (decision 096).';
revoke all on function private.requires_aal2() from public;
grant execute on function private.requires_aal2() to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------
-- One free trial per mailbox. The trial starts with the profile (decision 031); deleting the account
-- and signing up again with the same address must not start a second one. Every address that had a
-- trial is remembered as a keyed hash (SHA-256 of the address between two copies of a random key kept
-- in this schema, readable by nobody through the API) with the end of its trial — never the address itself, so the
-- list outlives a GDPR deletion without identifying anyone: a hash cannot be turned back into an
-- address, and without the key a list of candidate addresses cannot be matched against it.
-- ---------------------------------------------------------------------------------------------------

create table if not exists private.keyed_hash_key (
  id boolean primary key default true constraint keyed_hash_key_single_row check (id),
  -- 32 random bytes (two random UUIDs: 244 random bits).
  key bytea not null default decode(
    replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex')
);
insert into private.keyed_hash_key (id) values (true) on conflict (id) do nothing;
revoke all on table private.keyed_hash_key from public, anon, authenticated, service_role;

create or replace function private.mailbox_hash(email text) returns text
language sql stable security definer set search_path = ''
as $$
  select encode(sha256(k.key || convert_to(lower(btrim(email)), 'UTF8') || k.key), 'hex')
  from private.keyed_hash_key k where k.id
$$;
revoke all on function private.mailbox_hash(text) from public;

create table if not exists private.trial_history (
  mailbox_hash text primary key,
  trial_ends_at timestamptz not null,
  recorded_at timestamptz not null default now()
);
revoke all on table private.trial_history from public, anon, authenticated, service_role;

-- Records that the account's address had (or has) the trial ending at `trial_ends_at`; an address
-- keeps the earliest end it ever had.
create or replace function private.remember_trial(email text, trial_ends_at timestamptz) returns void
language sql volatile security definer set search_path = ''
as $$
  insert into private.trial_history as t (mailbox_hash, trial_ends_at)
  select private.mailbox_hash(email), remember_trial.trial_ends_at
  where nullif(btrim(email), '') is not null
  on conflict (mailbox_hash) do update set trial_ends_at = least(t.trial_ends_at, excluded.trial_ends_at)
$$;
revoke all on function private.remember_trial(text, timestamptz) from public;

-- A new profile's trial ends when the address's first trial ended (if that is sooner): a returning
-- address gets what was left of its trial, and nothing once it is over. Runs after guard_profile
-- (triggers fire in name order), so the owner still may not choose the value.
create or replace function private.limit_trial() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_email text;
  v_previous timestamptz;
begin
  select u.email::text into v_email from auth.users u where u.id = new.user_id;
  if v_email is not null then
    select t.trial_ends_at into v_previous from private.trial_history t
    where t.mailbox_hash = private.mailbox_hash(v_email);
    if v_previous is not null then
      new.trial_ends_at := least(new.trial_ends_at, greatest(v_previous, now()));
    end if;
    perform private.remember_trial(v_email, new.trial_ends_at);
  end if;
  return new;
end
$$;
revoke all on function private.limit_trial() from public;

create or replace trigger limit_trial before insert on public.profiles
  for each row execute function private.limit_trial();

-- An address the account moves to has used the account's trial too.
create or replace function private.remember_trial_of_new_email() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.remember_trial(new.email, p.trial_ends_at)
  from public.profiles p where p.user_id = new.id;
  return new;
exception when others then
  raise warning 'trial of user % not remembered for the new address: % (%)', new.id, sqlerrm, sqlstate;
  return new;
end
$$;
revoke all on function private.remember_trial_of_new_email() from public;

create or replace trigger remember_trial_of_new_email after update of email on auth.users
  for each row when (old.email is distinct from new.email and new.email is not null)
  execute function private.remember_trial_of_new_email();

-- An account that goes (GDPR deletion, or an operator's delete) leaves its address's trial as it ended:
-- shortened or over by then, it stays so for an account made later with that address.
create or replace function private.remember_trial_of_deleted_account() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.remember_trial(old.email, p.trial_ends_at)
  from public.profiles p where p.user_id = old.id;
  return old;
end
$$;
revoke all on function private.remember_trial_of_deleted_account() from public;

create or replace trigger remember_trial_of_deleted_account before delete on auth.users
  for each row execute function private.remember_trial_of_deleted_account();

-- Accounts that exist already: their addresses have had their trials.
insert into private.trial_history (mailbox_hash, trial_ends_at)
select private.mailbox_hash(u.email), min(p.trial_ends_at)
from public.profiles p join auth.users u on u.id = p.user_id
where u.email is not null and btrim(u.email) <> ''
group by private.mailbox_hash(u.email)
on conflict (mailbox_hash) do nothing;
