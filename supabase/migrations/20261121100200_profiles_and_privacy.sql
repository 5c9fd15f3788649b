-- HighGrade product schema, part 3: profiles (spec §3, §4 "Profile creation", "Trial") and
-- privacy_settings (spec §3 defaults, one row per user).

create table if not exists public.profiles (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  email text constraint profiles_email_format check (email is null or private.is_email(email)),
  full_name text
    constraint profiles_full_name_length check (full_name is null or private.trimmed_length(full_name) between 2 and 100)
    constraint profiles_full_name_markup check (full_name is null or not (private.has_html(full_name) or private.has_script_markup(full_name))),
  -- The derived username (§4) is the email's local part in a-z, 0-9 and _; people may choose letters,
  -- digits, _ . and - themselves. Uniqueness ignores case (profiles_username_key below).
  username text constraint profiles_username_format check (username is null or username ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$'),
  bio text
    constraint profiles_bio_length check (bio is null or private.trimmed_length(bio) between 1 and 1000)
    constraint profiles_bio_markup check (bio is null or not private.has_script_markup(bio)),
  avatar_url text constraint profiles_avatar_url_format check (avatar_url is null or private.is_http_url(avatar_url)),
  created_at timestamptz not null default now(),
  -- The trial starts with the profile; its length is a product setting (decision 031).
  trial_ends_at timestamptz not null default (now() + private.trial_length()),
  updated_at timestamptz not null default now()
);

create unique index if not exists profiles_username_key on public.profiles (lower(username));

alter table public.profiles enable row level security;

drop policy if exists "profiles: read own or as admin" on public.profiles;
create policy "profiles: read own or as admin" on public.profiles
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')));

drop policy if exists "profiles: create own" on public.profiles;
create policy "profiles: create own" on public.profiles
  for insert to authenticated
  with check (user_id = (select auth.uid()));

drop policy if exists "profiles: edit own or as admin" on public.profiles;
create policy "profiles: edit own or as admin" on public.profiles
  for update to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')))
  with check (user_id = (select auth.uid()) or (select public.has_role('admin')));
-- No delete policy: a profile goes with its account (GDPR deletion, service_role, cascade).

-- The account's email address, for the profile guard below (auth.users is not readable by callers).
create or replace function private.account_email() returns text
language sql stable security definer set search_path = ''
as $$
  select u.email::text from auth.users u where u.id = (select auth.uid())
$$;
revoke all on function private.account_email() from public;
grant execute on function private.account_email() to authenticated;

-- What the owner may not decide about their own profile: when it was created, when their trial ends
-- (that would be free scammer-network access for ever) and an email address that is not theirs.
create or replace function private.guard_profile() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if private.is_privileged() or public.has_role('admin') then
    return new;
  end if;
  if tg_op = 'INSERT' then
    if new.trial_ends_at is distinct from now() + private.trial_length() then
      raise exception using errcode = 'insufficient_privilege',
        message = 'profiles.trial_ends_at is set by the server', hint = 'Leave trial_ends_at out of the request.';
    end if;
  elsif new.trial_ends_at is distinct from old.trial_ends_at then
    raise exception using errcode = 'insufficient_privilege',
      message = 'profiles.trial_ends_at is set by the server', hint = 'Leave trial_ends_at out of the request.';
  end if;
  if new.email is not null
    and (tg_op = 'INSERT' or new.email is distinct from old.email)
    and lower(new.email) is distinct from lower(private.account_email()) then
    raise exception using errcode = 'insufficient_privilege',
      message = 'profiles.email must be the email address of the account';
  end if;
  return new;
end
$$;

create or replace trigger guard_profile before insert or update on public.profiles
  for each row execute function private.guard_profile();
create or replace trigger guard_timestamps before insert or update on public.profiles
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger guard_immutable before update on public.profiles
  for each row execute function private.guard_immutable('user_id');
create or replace trigger touch_updated_at before update on public.profiles
  for each row execute function private.touch_updated_at();

-- Every new account gets its profile at once (§4 "Profile creation" rules: the email, the metadata
-- full name, the username derived from the email's local part), so the trial starts at sign-up and
-- the browser's create-if-missing path is only a fallback. A username already taken gets a short
-- suffix. Sign-up must never fail because of the profile: on any error the account is created
-- without one and the browser creates it later (decision 032).
create or replace function private.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  base text;
  candidate text;
  display_name text;
  tries integer := 0;
begin
  base := left(regexp_replace(lower(split_part(coalesce(new.email, ''), '@', 1)), '[^a-z0-9_]', '_', 'g'), 48);
  if base = '' then
    base := 'user';
  end if;
  candidate := base;
  while exists (select 1 from public.profiles p where lower(p.username) = candidate) loop
    tries := tries + 1;
    if tries > 20 then
      candidate := null;
      exit;
    end if;
    candidate := base || '_' || left(replace(gen_random_uuid()::text, '-', ''), 6);
  end loop;

  display_name := btrim(new.raw_user_meta_data ->> 'full_name');
  if display_name is not null and (
    private.trimmed_length(display_name) not between 2 and 100
    or private.has_html(display_name) or private.has_script_markup(display_name)
  ) then
    display_name := null;
  end if;

  begin
    insert into public.profiles (user_id, email, full_name, username)
    values (new.id, case when private.is_email(new.email) then new.email end, display_name, candidate)
    on conflict (user_id) do nothing;
  exception when unique_violation then
    -- The username was taken between the check and the insert: keep the profile, skip the username.
    insert into public.profiles (user_id, email, full_name)
    values (new.id, case when private.is_email(new.email) then new.email end, display_name)
    on conflict (user_id) do nothing;
  end;
  return new;
exception when others then
  raise warning 'profile for new user % not created: % (%)', new.id, sqlerrm, sqlstate;
  return new;
end
$$;

create or replace trigger on_auth_user_created after insert on auth.users
  for each row execute function private.handle_new_user();

-- The profile's email follows the account's (email change, §7 PUT user).
create or replace function private.sync_profile_email() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.profiles
  set email = case when private.is_email(new.email) then new.email end
  where user_id = new.id;
  return new;
exception when others then
  raise warning 'profile email of user % not updated: % (%)', new.id, sqlerrm, sqlstate;
  return new;
end
$$;

create or replace trigger on_auth_user_email_changed after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function private.sync_profile_email();

revoke all on function private.guard_profile(), private.handle_new_user(), private.sync_profile_email() from public;

-- ---------------------------------------------------------------------------------------------------
-- privacy_settings: one row per user, so the web app's upsert on user_id works; absent until first
-- saved (the web app then keeps the defaults, §4 "Privacy").
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.privacy_settings (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  profile_visibility text not null default 'public'
    constraint privacy_settings_profile_visibility_check check (profile_visibility in ('public', 'private', 'friends')),
  show_email boolean not null default false,
  show_activity boolean not null default true,
  allow_analytics boolean not null default true,
  allow_marketing boolean not null default false,
  data_processing_consent boolean not null default false,
  auto_delete_inactive boolean not null default false,
  inactive_period_months integer not null default 24
    constraint privacy_settings_inactive_period_months_check check (inactive_period_months in (12, 24, 36, 60)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

alter table public.privacy_settings enable row level security;

drop policy if exists "privacy_settings: read own" on public.privacy_settings;
create policy "privacy_settings: read own" on public.privacy_settings
  for select to authenticated
  using (user_id = (select auth.uid()));

drop policy if exists "privacy_settings: create own" on public.privacy_settings;
create policy "privacy_settings: create own" on public.privacy_settings
  for insert to authenticated
  with check (user_id = (select auth.uid()));

drop policy if exists "privacy_settings: edit own" on public.privacy_settings;
create policy "privacy_settings: edit own" on public.privacy_settings
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

drop policy if exists "privacy_settings: reset own" on public.privacy_settings;
create policy "privacy_settings: reset own" on public.privacy_settings
  for delete to authenticated
  using (user_id = (select auth.uid()));

create or replace trigger guard_timestamps before insert or update on public.privacy_settings
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger touch_updated_at before update on public.privacy_settings
  for each row execute function private.touch_updated_at();
